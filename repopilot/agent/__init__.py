"""The agent: a hand-written ReAct loop (loop.py) over read-only, sandboxed tools (tools.py).

Its guards (guards.py) check every field of one `Limits` (limits.py) against one clock; the
trace payloads it writes and replay reads back are typed (steps.py). Entry point:
`repopilot.agent.loop.Agent(llm, Toolbox(root, base_ref=..., log=...), validate=...).run(goal)
-> AgentOutcome`. Nothing is imported here, so importing one module does not pull in the loop.
"""
