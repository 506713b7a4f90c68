"""Learning a pattern from a log line (docs/CONTRACTS.md Contract 6): the line generalised into a
regex (tokens), the checks a candidate passes (check), the learner that picks the candidate
(learner), and GitHub problem matchers imported as patterns (matcher)."""
