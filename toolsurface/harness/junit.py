"""JUnit XML, the test report other CI servers read (Jenkins, GitLab, Azure Pipelines, CircleCI, ...): suites of
test cases, each passed, failed or in error. The shape follows the junit-10 schema of Jenkins' xunit plugin, which
those servers accept: `testsuites` > `testsuite` (name, tests, failures, errors, skipped) > `testcase` (name,
classname) with an optional `failure` or `error` (message, type, text) and `system-out`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["JUnitCase", "JUnitSuite", "junit_xml"]

# Characters XML 1.0 cannot hold at all, even escaped; a tool description may carry them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_text(text: str) -> str:
    """Text XML can hold, with any secret it shows redacted (harness.redact)."""
    from toolsurface.harness.redact import redacted_text

    return _NOT_XML.sub(lambda found: f"\\x{ord(found.group()):02x}", redacted_text(text))


@dataclass(frozen=True)
class JUnitCase:
    """One test case; `outcome` failure: the check said no; error: it could not be judged."""

    name: str
    classname: str
    outcome: Literal["passed", "failure", "error"] = "passed"
    message: str = ""
    detail: str = ""
    kind: str = ""
    output: str = ""


@dataclass(frozen=True)
class JUnitSuite:
    name: str
    cases: Sequence[JUnitCase]
    properties: dict[str, str] = field(default_factory=dict)

    def count(self, outcome: str) -> int:
        return sum(1 for case in self.cases if case.outcome == outcome)


def junit_xml(suites: Sequence[JUnitSuite], name: str = "toolsurface") -> str:
    """The suites as one `testsuites` document, UTF-8, with its XML declaration."""
    root = ET.Element("testsuites", name=_xml_text(name))
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in suites:
        counts = {
            "tests": len(suite.cases),
            "failures": suite.count("failure"),
            "errors": suite.count("error"),
        }
        for key, value in counts.items():
            totals[key] += value
        element = ET.SubElement(
            root,
            "testsuite",
            name=_xml_text(suite.name),
            tests=str(counts["tests"]),
            failures=str(counts["failures"]),
            errors=str(counts["errors"]),
            skipped="0",
            time="0",
        )
        if suite.properties:
            properties = ET.SubElement(element, "properties")
            for name_, text in suite.properties.items():
                ET.SubElement(properties, "property", name=_xml_text(name_), value=_xml_text(text))
        for case in suite.cases:
            node = ET.SubElement(element, "testcase", name=_xml_text(case.name), classname=_xml_text(case.classname))
            node.set("time", "0")
            if case.outcome != "passed":
                verdict = ET.SubElement(node, case.outcome, message=_xml_text(case.message))
                if case.kind:
                    verdict.set("type", _xml_text(case.kind))
                verdict.text = _xml_text(case.detail or case.message)
            if case.output:
                ET.SubElement(node, "system-out").text = _xml_text(case.output)
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
