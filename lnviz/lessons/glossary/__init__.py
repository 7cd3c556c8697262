"""The glossary: every idea of the app with a definition, a formula and a link to see it."""
