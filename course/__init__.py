"""The course build library: data schemas, the number registry, figures and the mkdocs hook."""
