from repopilot.cli import main

raise SystemExit(main())
