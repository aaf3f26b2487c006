"""``RunOptions`` (issue 20): ``ragdx run``'s options as one typed object, built by
``run_options`` from ragdx.yaml's ``run:`` section and the caller's values, checked once; the CLI
names a bad value by its flag, the API by its keyword, with the same message."""

from __future__ import annotations

import pytest

from ragdx.config import Config, RunConfig
from ragdx.errors import RagdxError
from ragdx.rag.options import FLAGS, RunOptions, run_options


@pytest.mark.parametrize(("given", "field", "message"), [
    ({"concurrency": 0}, "concurrency", "expected 1 or more, got 0"),
    ({"limit": 0}, "limit", "expected 1 or more, got 0"),
    ({"workers": 0, "executor": "ray"}, "workers", "expected 1 or more, got 0"),
    ({"contexts": "all"}, "contexts", "expected one of once, full, hash, got 'all'"),
    ({"executor": "dask"}, "executor", "expected one of local, ray, got 'dask'"),
    ({"max_failed": "ten"}, "max_failed", "expected a count of records (e.g. 5) or a share below 1 (e.g. 0.1 or "
                                          "10%), got 'ten'"),
    ({"max_failed": 1.5}, "max_failed", "expected a count of records (e.g. 5) or a share below 1 (e.g. 0.1 or "
                                        "10%), got '1.5'"),
    ({"max_failed": True}, "max_failed", "expected a count of records (e.g. 5) or a share below 1 (e.g. 0.1 or "
                                         "10%), got 'True'"),
    ({"concurrency": True}, "concurrency", "expected a whole number, got True"),
    ({"probe": "no"}, "probe", "expected true or false, got 'no'"),
])
def test_a_bad_option_is_one_line_naming_it_as_each_face_spells_it(given, field, message):
    with pytest.raises(RagdxError) as api:
        run_options(None, given)
    assert (api.value.field, api.value.message) == (field, message)
    with pytest.raises(RagdxError) as cli:
        run_options(None, given, names=FLAGS)
    assert (cli.value.field, cli.value.message) == (FLAGS[field], message)
    with pytest.raises(RagdxError) as built:  # the constructor checks the same way
        RunOptions(**given)
    assert (built.value.field, built.value.message) == (field, message)


def test_the_project_file_gives_the_defaults_and_the_caller_wins():
    cfg = Config(run=RunConfig(concurrency=8, contexts="hash", max_failed="10%", probe=False))
    options = run_options(cfg, {"concurrency": 2, "limit": None})
    assert (options.concurrency, options.contexts, options.max_failed, options.probe) == (2, "hash", 0.1, False)
    assert run_options(None, {}) == RunOptions()  # no file: ragdx run's defaults
    assert run_options(options, {"contexts": "once"}).to_dict() == {**options.to_dict(), "contexts": "once"}
    assert options.runner_kwargs() == {"concurrency": 2, "rerun_failed": False, "progress": True, "overwrite": False,
                                       "limit": None, "contexts": "hash"}
    # a count stays a count, a share a share: 0 means no failure may happen, not "no bound"
    assert (RunOptions(max_failed="0").max_failed, RunOptions(max_failed="5").max_failed) == (0, 5)
    with pytest.raises(RagdxError, match="not a run option"):
        run_options(None, {"concurency": 2})


def test_ray_settings_belong_to_the_ray_executor():
    with pytest.raises(RagdxError) as local:
        run_options(None, {"address": "auto"}, names=FLAGS)
    assert str(local.value) == "--executor: --address and --workers are for --executor ray"
    ray = RunOptions(executor="ray", address="auto", workers=3)
    assert (ray.executor, ray.address, ray.workers) == ("ray", "auto", 3)
