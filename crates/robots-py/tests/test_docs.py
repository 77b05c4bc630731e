"""The examples in the docstrings (those Python shows with help()) run and hold."""

import doctest

import pytest

import robots
import robots.scrapy

DOCUMENTED = [robots, robots.Robots, robots.Agent, robots.from_response, robots.origin_of,
              robots.scrapy.RobotParser]


@pytest.mark.parametrize("obj", DOCUMENTED, ids=lambda o: getattr(o, "__name__", repr(o)))
def test_docstring_examples(obj):
    tests = doctest.DocTestFinder(recurse=False).find(obj, obj.__name__, globs={"robots": robots,
                                                                                 "RobotParser": robots.scrapy.RobotParser})
    examples = [e for t in tests for e in t.examples]
    assert examples, f"{obj.__name__} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0
