from decimal import Decimal

SYMBOLS = {"EUR": "€", "GBP": "£", "USD": "$"}


def fmt(amount: Decimal, currency: str) -> str:
    symbol = SYMBOLS.get(currency)
    if symbol is None:
        return f"{amount:.2f} {currency}"
    if currency == "EUR":
        return f"{amount:.2f} {symbol}"
    return f"{symbol}{amount:.2f}"


def parse(text: str) -> tuple[Decimal, str]:
    text = text.strip()
    for code, symbol in SYMBOLS.items():
        if text.startswith(symbol):
            return Decimal(text[len(symbol):]), code
        if text.endswith(symbol):
            return Decimal(text[: -len(symbol)].strip()), code
    amount, code = text.split()
    return Decimal(amount), code
