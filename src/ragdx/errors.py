"""Errors that reach a person: one line that names the file and the field."""

from __future__ import annotations


class RagdxError(Exception):
    """Bad input or an unusable resource. The CLI prints it on one line and exits with 2.

    ``source`` is the file, URL or object the problem is in; ``field`` the key, column or
    line inside it. Both are optional but should be given whenever they are known.
    """

    exit_code = 2

    def __init__(self, message: str, *, source: str | None = None, field: str | None = None):
        self.message = message
        self.source = source
        self.field = field
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.source and self.field:
            where = f"{self.source}: {self.field}: "
        elif self.source:
            where = f"{self.source}: "
        elif self.field:
            where = f"{self.field}: "
        return f"{where}{self.message}"


def validated(model, data, *, source: str | None = None, prefix: str = ""):
    """``model.model_validate(data)`` (a pydantic model or TypeAdapter's ``validate_python``),
    with the first validation error turned into a one-line RagdxError naming the field."""
    from pydantic import ValidationError

    validate = getattr(model, "model_validate", None) or model.validate_python
    try:
        return validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        where = ".".join(str(p) for p in first["loc"]) or None
        field = f"{prefix}{where}" if prefix and where else (prefix.rstrip(": ") or where)
        raise RagdxError(first["msg"] + more, source=source, field=field) from None


class TemplateError(RagdxError):
    """A SQL or text template that cannot be used."""


class DatabaseError(RagdxError):
    """A database that cannot be reached or read."""


class LLMError(RagdxError):
    """An LLM call that failed after its retries, or whose output could not be used."""

    exit_code = 1
