class FetchError(Exception):
    """Raised when a URL cannot be fetched after every retry."""


class RateLimitError(FetchError):
    """The server asked us to slow down (HTTP 429)."""
