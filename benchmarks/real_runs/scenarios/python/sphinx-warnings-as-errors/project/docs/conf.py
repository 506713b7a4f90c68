import os
import sys

sys.path.insert(0, os.path.abspath("../src"))

project = "geo"
author = "Mapping Team"
release = "1.4.0"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
templates_path = []
exclude_patterns = ["_build"]
html_theme = "alabaster"
nitpicky = False
