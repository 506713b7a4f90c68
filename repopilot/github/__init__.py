"""The GitHub edge: the only package that imports PyGithub.

Entry points import the submodule they need (`repopilot.github.runner`, `.flows`, ...);
the core never imports this package.
"""
