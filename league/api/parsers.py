"""The API's JSON parser: DRF's, with nesting bounded (`league.core.json_input`), so a deeply nested body is a
400 like any other malformed JSON instead of a RecursionError."""

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

from league.core.json_input import parse_json


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        parse_constant = json.strict_constant if self.strict else None
        try:
            return parse_json(stream.read().decode(encoding), parse_constant=parse_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
