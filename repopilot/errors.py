"""The errors a user can cause, shared across modules: each message is one line, what and where.

They sit at the bottom floor so every stage can raise them and both entry points can report them
without importing each other: the CLI prints any `InputError` as `repopilot: <message>` with
exit status 2, never a traceback.
"""

from __future__ import annotations


class InputError(Exception):
    """Unusable input: the message is one line saying what and where."""


class UsageError(InputError):
    """A bad command line or a CLI input that cannot be used."""


class LogError(InputError):
    """A log path or archive that cannot be read as CI logs (missing, corrupt, over a limit)."""


class PatternError(InputError):
    """A pattern file that cannot be used: the message is `file:line: reason`."""


class TraceError(InputError):
    """A trace file that cannot be read or is not a Contract 5 trace."""


class EvalError(InputError):
    """Unusable evaluation input (a corpus directory, a label file)."""
