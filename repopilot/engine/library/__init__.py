"""The pattern library: load and validate the YAML files (loader, schema), derive each pattern's
required literals (prefilter), and cache what loading proved (cache)."""
