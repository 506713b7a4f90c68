"""The agent: a hand-written ReAct loop (loop.py) over read-only, sandboxed tools (tools.py).

Entry point: `repopilot.agent.loop.Agent(llm, Toolbox(root, base_ref=..., log=...),
validate=...).run(goal) -> AgentOutcome`. Nothing is imported here so that importing one module
(for example context.py) does not pull in the loop.
"""
