"""Learning a pattern from a log line (docs/CONTRACTS.md Contract 6): the line generalised into a
regex (tokens), what a line may become (line), the checks a candidate passes (check), specialising
a candidate that takes lines it must not (specialise), widening a learned pattern by one more
example (widen), the file data (wire), the learner that puts them together (learner), and GitHub
problem matchers imported as patterns (matcher)."""
