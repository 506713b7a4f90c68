"""The matching machinery: which patterns match which lines of a job log. The streaming scan
(scan), the set engine over all patterns at once (set_engine: Hyperscan pass, RE2 line forms),
the translation of each regex to RE2 (re2_translate), and one large file on two cores (split_file)."""
