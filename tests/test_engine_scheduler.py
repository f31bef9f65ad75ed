"""Scheduler and KV block manager logic, deterministic and without a model."""

from __future__ import annotations

from app.engine.api import Priority, SamplingParams
from app.engine.detokenizer import IncrementalDetokenizer
from app.engine.kv_cache import BlockManager
from app.engine.measured import RecentMedian
from app.engine.scheduler import BatchSizer, ScheduledBatch, Scheduler, SchedulerConfig, StepOutcome
from app.engine.sequence import Sequence, Status

BS = 4
EOS = 2


def make_scheduler(num_blocks: int = 64, max_batch: int = 8, step_tokens: int = 64, aging_s: float = 10.0, itl_ms: float = 0.0,
                   max_seq_len: int = 256, eos: int = EOS):
    cfg = SchedulerConfig(max_batch=max_batch, max_step_tokens=step_tokens, aging_s=aging_s, itl_target_ms=itl_ms,
                          max_seq_len=max_seq_len, eos_ids=frozenset({eos}))
    return Scheduler(cfg, BlockManager(num_blocks, BS))


def seq(
    name: str, priority: Priority, n_prompt: int = 6, arrival: float = 0.0, max_tokens: int = 8, start: int = 100
) -> Sequence:
    prompt = list(range(start, start + n_prompt))
    return Sequence(name, prompt, SamplingParams(max_tokens=max_tokens), priority, arrival=arrival)


def run_step(sched: Scheduler, now: float, token: int = 7) -> list[str]:
    """Schedule one step and apply it as the engine does: every row whose prompt is complete samples ``token``."""
    batch = sched.schedule(now)
    sched.postprocess(batch, StepOutcome(tokens={s: [token] for s in sampled_rows(batch)}), now, now)
    return [s.request_id for s in batch.decode] + [s.request_id for s, _ in batch.prefill]


def sampled_rows(batch: ScheduledBatch) -> list[Sequence]:
    return batch.decode + [s for s, n in batch.prefill if s.num_computed + n == len(s)]


def test_admission_follows_priority_classes_then_arrival():
    sched = make_scheduler(max_batch=2)
    for s in [
        seq("bg", Priority.BACKGROUND, arrival=0.0),
        seq("text1", Priority.TEXT, arrival=0.1),
        seq("voice", Priority.VOICE, arrival=0.2),
        seq("text2", Priority.TEXT, arrival=0.3),
    ]:
        sched.add(s)
    assert run_step(sched, now=0.5) == ["voice"]  # a new voice request runs alone first
    assert run_step(sched, now=0.6) == ["voice", "text1"]


def test_full_batch_decodes_the_best_ranked_and_a_new_voice_request_cuts_in():
    sched = make_scheduler(max_batch=2)
    sched.add(seq("text1", Priority.TEXT, arrival=0.0))
    sched.add(seq("text2", Priority.TEXT, arrival=0.1))
    assert sorted(run_step(sched, now=0.2)) == ["text1", "text2"]
    sched.add(seq("voice", Priority.VOICE, arrival=0.3))
    assert run_step(sched, now=0.4) == ["voice"]
    # the voice request takes the later text request's place; text2 keeps its KV and waits
    assert len(sched.running) == 3
    assert run_step(sched, now=0.5) == ["voice", "text1"]


def test_aging_lets_a_long_waiting_background_request_overtake_new_text():
    sched = make_scheduler(max_batch=1, aging_s=1.0)
    sched.add(seq("bg", Priority.BACKGROUND, arrival=0.0))
    sched.add(seq("text", Priority.TEXT, arrival=2.5))
    # at t=3: bg rank 2 - 3 = -1, text rank 1 - 0.5 = 0.5
    assert run_step(sched, now=3.0) == ["bg"]


def test_requests_that_do_not_fit_wait_and_run_when_memory_frees():
    # 6 blocks of 4 tokens: each request needs 2 blocks for its prompt (6 tokens), 4 to finish
    sched = make_scheduler(num_blocks=6)
    a, b, c = (seq(n, Priority.TEXT, arrival=i, max_tokens=2) for i, n in enumerate("abc"))
    for s in (a, b, c):
        sched.add(s)
    first = run_step(sched, now=5.0)
    assert "c" not in first and c.status is Status.WAITING
    sched.remove(a)
    assert sched.blocks.num_used == len(b.block_table)
    assert "c" in run_step(sched, now=6.0)


def test_memory_shortage_preempts_the_lowest_class_for_a_voice_request():
    sched = make_scheduler(num_blocks=5)
    bg = seq("bg", Priority.BACKGROUND, n_prompt=10, arrival=0.0, start=500)
    sched.add(bg)
    run_step(sched, now=0.1)
    assert bg.status is Status.RUNNING and len(bg.block_table) == 3
    voice = seq("voice", Priority.VOICE, n_prompt=10, arrival=0.2)
    sched.add(voice)
    assert run_step(sched, now=0.3) == ["voice"]
    assert bg.status is Status.WAITING and bg.block_table == [] and bg.preemptions == 1
    # recompute keeps the generated token: the preempted request prefills prompt + output later
    assert len(bg) == 11


def test_cancel_releases_blocks_at_once():
    sched = make_scheduler()
    s = seq("a", Priority.TEXT, n_prompt=9)
    sched.add(s)
    run_step(sched, now=0.0)
    assert sched.blocks.num_used == 3
    sched.remove(s)
    assert sched.blocks.num_used == 0 and not sched.has_work()


def test_long_prompts_are_prefilled_in_chunks_while_decodes_continue():
    sched = make_scheduler(step_tokens=8)
    short = seq("short", Priority.VOICE, n_prompt=4)
    sched.add(short)
    run_step(sched, now=0.0)
    long = seq("long", Priority.TEXT, n_prompt=20, start=300)
    sched.add(long)
    batch = sched.schedule(0.1)
    assert [s.request_id for s in batch.decode] == ["short"]
    assert [(s.request_id, n) for s, n in batch.prefill] == [("long", 7)]


def test_prefix_cache_reuses_exact_prefixes_only():
    blocks = BlockManager(16, BS)
    first = Sequence("t1", list(range(1, 12)), SamplingParams(), Priority.TEXT)
    blocks.admit(first)
    blocks.grow(first, len(first))
    first.num_computed = len(first)
    blocks.commit(first)
    blocks.release(first)
    assert blocks.num_used == 0 and blocks.num_cached_free == 2

    same_start = Sequence("t2", list(range(1, 12)) + [50, 51], SamplingParams(), Priority.TEXT)
    blocks.admit(same_start)
    assert same_start.num_computed == 8  # two full blocks reused
    other = Sequence("t3", [1, 2, 3, 4, 99] + list(range(6, 12)), SamplingParams(), Priority.TEXT)
    blocks.admit(other)
    assert other.num_computed == 4  # only the first block is identical


def test_a_request_that_ends_in_the_step_that_computed_its_prompt_leaves_the_prompt_reusable():
    """A one-token request (the end-of-turn score) finishes in its prefill step; its full blocks are cached all the same."""
    sched = make_scheduler()
    score = Sequence("score", list(range(100, 111)), SamplingParams(max_tokens=1), Priority.VOICE)
    sched.add(score)
    assert run_step(sched, now=0.0) == ["score"] and score.status is Status.FINISHED
    assert sched.blocks.cached_prefix_len(Sequence("next", list(range(100, 113)), SamplingParams(), Priority.VOICE)) == 8


def test_a_probed_position_is_computed_even_where_the_prefix_cache_holds_it():
    """The end-of-turn score reads the logits at the user's words' end: a cached block over that position would
    leave them unread, so the prefix match stops before it."""
    sched = make_scheduler()
    earlier = Sequence("earlier", list(range(100, 113)), SamplingParams(max_tokens=1), Priority.VOICE)
    sched.add(earlier)
    run_step(sched, now=0.0)  # caches blocks [100..103], [104..107], [108..111]
    probed = Sequence("probed", list(range(100, 113)), SamplingParams(), Priority.VOICE)
    assert sched.blocks.cached_prefix_len(probed) == 12
    probed.probe_position = 9
    assert sched.blocks.cached_prefix_len(probed) == 8  # position 9 lies in the third block: computed again
    probed.token_probs = {EOS: 0.5}  # read already (a preempted request admitted again): the cache serves it all
    assert sched.blocks.cached_prefix_len(probed) == 12


def test_prefix_cache_evicts_least_recently_freed_blocks_first():
    blocks = BlockManager(4, BS)
    old = Sequence("old", list(range(0, 9)), SamplingParams(), Priority.TEXT)
    new = Sequence("new", list(range(100, 109)), SamplingParams(), Priority.TEXT)
    for s in (old, new):
        blocks.admit(s)
        blocks.grow(s, 8)
        s.num_computed = 8
        blocks.commit(s)
    blocks.release(old)
    blocks.release(new)
    taker = Sequence("taker", list(range(200, 208)), SamplingParams(), Priority.TEXT)
    blocks.admit(taker)
    blocks.grow(taker, 8)  # needs two blocks: the old conversation's go
    assert blocks.cached_prefix_len(Sequence("x", list(range(100, 109)), SamplingParams(), Priority.TEXT)) == 8
    assert blocks.cached_prefix_len(Sequence("y", list(range(0, 9)), SamplingParams(), Priority.TEXT)) == 0


def test_batch_sizer_caps_voice_batches_by_measured_step_time():
    sizer = BatchSizer(max_batch=32, itl_target_ms=100)
    assert sizer.limit(latency_sensitive=True) == 1  # nothing measured: start small
    for b, ms in [(1, 30), (2, 35), (4, 50), (8, 80), (16, 140)]:
        sizer.observe(b, ms)
    assert sizer.limit(latency_sensitive=True) == 8
    assert sizer.limit(latency_sensitive=False) == 32


def test_one_stalled_step_does_not_cap_voice_batches_for_good():
    sizer = BatchSizer(max_batch=8, itl_target_ms=100)
    for _ in range(3):
        for b, ms in [(1, 30), (2, 35), (4, 50), (8, 80)]:
            sizer.observe(b, ms)
    sizer.observe(8, 600)  # the machine stalled for one step
    assert sizer.limit(latency_sensitive=True) == 8
    for _ in range(RecentMedian.SIZE):  # ... but a size that got slower for good is priced as it is
        sizer.observe(8, 150)
    assert sizer.limit(latency_sensitive=True) == 4


def test_a_waiting_voice_request_gets_a_step_of_voice_work_only():
    sched = make_scheduler(max_batch=8)
    for name in ("text1", "text2"):
        sched.add(seq(name, Priority.TEXT, arrival=0.0))
    run_step(sched, now=0.1)
    sched.add(seq("voice", Priority.VOICE, arrival=0.2))
    assert run_step(sched, now=0.3) == ["voice"]
    assert sorted(run_step(sched, now=0.4)) == ["text1", "text2", "voice"]


def test_on_a_slow_machine_the_voice_batch_grows_within_half_again_the_smallest_step():
    sizer = BatchSizer(max_batch=32, itl_target_ms=100)
    for b, ms in [(1, 200), (2, 210), (4, 240), (8, 290), (16, 320)]:
        sizer.observe(b, ms)
    assert sizer.limit(latency_sensitive=True) == 8


def test_prefills_of_similar_length_share_a_padded_attention_call():
    from app.engine.attention import _length_buckets

    # (cached tokens, new tokens): three short chunks with a shared prefix and one long prompt
    chunks = [(32, 6), (32, 5), (0, 400), (32, 7)]
    groups = _length_buckets(chunks)
    assert sorted(map(sorted, groups)) == [[0, 1, 3], [2]]


def test_a_long_running_text_request_does_not_outrank_a_newer_voice_request():
    sched = make_scheduler(max_batch=1, aging_s=2.0)
    text = seq("text", Priority.TEXT, arrival=0.0, max_tokens=100)
    sched.add(text)
    for t in range(1, 6):
        assert run_step(sched, now=float(t)) == ["text"]
    sched.add(seq("voice", Priority.VOICE, arrival=5.5, max_tokens=100))
    order = [run_step(sched, now=6.0 + 0.1 * k)[0] for k in range(20)]
    # running for a long time earns no rank; waiting does: text gets a step after ~aging_s
    assert order[:10] == ["voice"] * 10
    assert "text" in order[10:]


def test_the_latency_cap_holds_back_text_but_never_voice_and_never_starves_text():
    sched = make_scheduler(max_batch=8, itl_ms=100)
    for b, ms in [(1, 150), (2, 300), (4, 600)]:
        sched.sizer.observe(b, ms)
    assert sched.sizer.limit(latency_sensitive=True) == 1
    for name in ("voice1", "voice2", "voice3"):
        sched.add(seq(name, Priority.VOICE, arrival=0.0, max_tokens=50))
    for name in ("text1", "text2"):
        sched.add(seq(name, Priority.TEXT, arrival=0.0, max_tokens=50, start=200))
    assert sorted(run_step(sched, now=0.1)) == ["voice1", "voice2", "voice3"]  # new voice: a voice-only step
    # then one place beyond the voice requests, taken in turn by the text requests (no aging needed)
    steps = [sorted(run_step(sched, now=0.1 + 0.01 * i)) for i in range(1, 5)]
    assert sched.last_limit == 4
    assert all(step[-3:] == ["voice1", "voice2", "voice3"] and len(step) == 4 for step in steps)
    texts = [step[0] for step in steps]
    assert texts.count("text1") == texts.count("text2") == 2


def test_logits_follow_the_batch_order_whatever_order_the_packing_chose():
    import torch

    from app.engine.attention import prepare_step

    short, long = seq("short", Priority.TEXT, n_prompt=10), seq("long", Priority.TEXT, n_prompt=20, start=300)
    short.block_table, long.block_table = [0, 1, 2], [3, 4, 5, 6, 7]
    inputs = prepare_step(ScheduledBatch(prefill=[(short, 10), (long, 20)]), BS, torch.device("cpu"))
    # the longer chunk is packed first; the engine samples the rows in the batch's order
    last_tokens = inputs.input_ids[inputs.logits_indices].tolist()
    assert last_tokens == [short.token_ids[-1], long.token_ids[-1]]


def test_a_prefill_chunk_holding_the_probe_position_gets_logits_from_there_on():
    import torch

    from app.engine.attention import prepare_step

    probed = seq("probed", Priority.VOICE, n_prompt=12)
    probed.probe_position, probed.block_table = 6, [0, 1, 2]
    assert [probed.prefill_logits(n) for n in (4, 6, 7, 12)] == [0, 0, 1, 6]  # the chunk ends before, at, after it
    inputs = prepare_step(ScheduledBatch(prefill=[(probed, 12)]), BS, torch.device("cpu"))
    assert inputs.input_ids[inputs.logits_indices].tolist() == probed.token_ids[6:]  # the probe's row first, the sampled last
    probed.num_computed = 8  # a later chunk, past the probe
    assert probed.prefill_logits(4) == 1 and probed.prefill_logits(2) == 0
    probed.num_computed, probed.token_probs = 0, {1: 0.5}  # answered already (a request computed again after a preemption)
    assert probed.prefill_logits(12) == 1


# --- postprocess: appending tokens, stop checks, finishing ---


def prefilled(sched: Scheduler, *seqs: Sequence) -> None:
    """Admit and prefill ``seqs`` (each samples token 7)."""
    for s in seqs:
        sched.add(s)
    run_step(sched, now=0.0)


def test_postprocess_appends_tokens_and_finishes_at_the_end_of_turn_token_freeing_kv():
    sched = make_scheduler()
    a, b = seq("a", Priority.TEXT), seq("b", Priority.TEXT, start=300)
    prefilled(sched, a, b)
    assert a.output_ids == [7] and a.first_token_at == 0.0 and a.num_computed == 6
    batch = sched.schedule(1.0)
    outputs = sched.postprocess(batch, StepOutcome(tokens={a: [EOS], b: [9]}), 1.0, 1.5)
    by_id = {out.seq.request_id: out for out in outputs}
    assert by_id["a"].delta.finished and by_id["a"].delta.finish_reason == "stop" and by_id["a"].delta.token_ids == [EOS]
    assert a.status is Status.FINISHED and a.block_table == [] and a not in sched.running
    assert not by_id["b"].delta.finished and b.output_ids == [7, 9] and b.num_computed == 7
    assert by_id["b"].gap_s == 1.5 and not by_id["b"].first_token and b.last_token_at == 1.5
    assert sched.blocks.num_used == len(b.block_table)


def test_postprocess_ignores_the_end_of_turn_token_when_asked_and_stops_at_the_token_limit():
    sched = make_scheduler()
    s = Sequence("s", [100, 101, 102], SamplingParams(max_tokens=3, ignore_eos=True), Priority.TEXT)
    prefilled(sched, s)
    reasons = [sched.postprocess(sched.schedule(t), StepOutcome(tokens={s: [EOS]}), t, t)[0].delta.finish_reason
               for t in (1.0, 2.0)]
    assert reasons == [None, "length"] and s.output_ids == [7, EOS, EOS] and s.status is Status.FINISHED


def test_postprocess_stops_at_the_context_limit():
    sched = make_scheduler(max_seq_len=8)
    s = seq("s", Priority.TEXT, n_prompt=6, max_tokens=100)
    prefilled(sched, s)
    out = sched.postprocess(sched.schedule(1.0), StepOutcome(tokens={s: [9]}), 1.0, 1.0)[0]
    assert out.delta.finish_reason == "length" and len(s) == 8


def test_postprocess_keeps_a_verified_run_up_to_its_stop_and_drops_the_rest():
    sched = make_scheduler()
    s = seq("s", Priority.TEXT, max_tokens=100)
    prefilled(sched, s)
    out = sched.postprocess(sched.schedule(1.0), StepOutcome(tokens={s: [11, 12, EOS, 13, 14]}), 1.0, 1.0)[0]
    assert out.delta.token_ids == [11, 12, EOS] and out.delta.finish_reason == "stop"
    assert s.output_ids == [7, 11, 12, EOS] and s.status is Status.FINISHED


def test_postprocess_counts_every_token_of_a_verified_run_as_computed():
    sched = make_scheduler()
    s = seq("s", Priority.TEXT, max_tokens=100)
    prefilled(sched, s)
    out = sched.postprocess(sched.schedule(1.0), StepOutcome(tokens={s: [11, 12, 13]}), 1.0, 1.0)[0]
    assert out.delta.token_ids == [11, 12, 13] and not out.delta.finished
    assert s.num_pending == 1 and s.num_computed == len(s) - 1
    assert sched.blocks.blocks[s.block_table[1]].hash is not None  # the second block filled up: in the prefix cache


def test_postprocess_fails_a_row_whose_sampling_failed_and_skips_one_cancelled_during_the_forward():
    sched = make_scheduler()
    bad, gone, fine = (seq(n, Priority.TEXT, start=100 * (i + 1)) for i, n in enumerate(["bad", "gone", "fine"]))
    prefilled(sched, bad, gone, fine)
    batch = sched.schedule(1.0)
    sched.remove(gone)  # a cancel while the forward ran
    outputs = sched.postprocess(batch, StepOutcome(tokens={bad: [], gone: [5], fine: [5]}, errors={bad: "NaN logits"}), 1.0, 1.0)
    assert [(o.seq.request_id, o.delta.finish_reason, o.delta.error) for o in outputs] == [("bad", "error", "NaN logits"),
                                                                                          ("fine", None, None)]
    assert bad.status is Status.FINISHED and gone.output_ids == [7] and gone.num_computed == 0


def test_postprocess_streams_text_and_ends_at_a_stop_string():
    class Letters:  # a tokenizer of one letter per token id
        def decode(self, ids, skip_special_tokens=True):
            return "".join(chr(ord("a") + i % 26) for i in ids)

    sched = make_scheduler()
    s = seq("s", Priority.TEXT, max_tokens=100)
    s.params.stop = ("ef",)
    s.detok = IncrementalDetokenizer(Letters(), s.token_ids, s.params.stop)
    prefilled(sched, s)
    texts = []
    for t, token in enumerate([3, 4, 5, 6]):  # d e f g: the reply "hdef" (7 is "h") ends before "ef"; "e" waits for the next
        if s.status is Status.RUNNING:
            out = sched.postprocess(sched.schedule(1.0 + t), StepOutcome(tokens={s: [token]}), 1.0 + t, 1.0 + t)[0]
            texts.append((out.delta.text, out.delta.finish_reason))
    assert texts == [("d", None), ("", None), ("", "stop")] and s.status is Status.FINISHED
