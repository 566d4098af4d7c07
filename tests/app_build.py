"""Apps built by one test process share what does not change between them (issue 22: CI time).

Most tests build a fresh app (its own instance folder and database), so the suite builds well
over a thousand. A build compiled the same 70-odd URL rules into Python code again (werkzeug
writes a builder function per rule) and the first page of each app compiled its templates again:
about 90 ms of CPU for an app and its home page, 24 ms with both kept per process. Nothing kept
here depends on an app's configuration or data: a rule's builder is made from the rule's text,
defaults and converters alone, and Jinja checks each template's source against the compiled
code it keeps (a changed template compiles again).
"""

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing import Rule


class ProcessTemplateCache(BytecodeCache):
    """Compiled templates kept in memory for every app of this process."""

    def __init__(self) -> None:
        self.compiled: dict[str, tuple[str, object]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Give the bucket the code compiled from the same source, if any."""
        kept = self.compiled.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep what was just compiled, with the checksum of its source."""
        self.compiled[bucket.key] = (bucket.checksum, bucket.code)


class ProcessRule(Rule):
    """A URL rule whose builder functions are compiled once per process for the same rule.

    The builder reads the rule's converters through `self` when it runs, so one function serves
    every app's copy of the rule; the key holds everything the builder's code is made from.
    """

    _builders: dict = {}

    def _compile_builder(self, append_unknown: bool = True):
        """The builder compiled for an equal rule before, else a new one (werkzeug's)."""
        key = (
            self.rule,
            self.subdomain,
            self.host,
            repr(sorted((self.defaults or {}).items())),
            tuple(self._trace),
            append_unknown,
        )
        builder = self._builders.get(key)
        if builder is None:
            builder = self._builders[key] = super()._compile_builder(append_unknown)
        return builder


def share_between_apps() -> None:
    """Every Flask app this process builds from now on keeps its rules and templates shared."""
    if not hasattr(Rule, "_compile_builder"):  # werkzeug changed: build every app in full
        return
    Flask.url_rule_class = ProcessRule
    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": ProcessTemplateCache()}
