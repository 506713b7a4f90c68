import attrs


@attrs.frozen
class Job:
    name: str
    retries: int = 3
