"""The training data and the training loop (tiny runs: the real one is a script)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.train.train_index as train_index
from vision.cards.net import NONE, RANK_CLASSES, SUIT_CLASSES, IndexNet, Shape
from vision.cards.proposals import Proposals, patch_input
from vision.render.scene import render
from vision.render.synth import KINDS, random_scene
from vision.train.corners import TrueIndex, corner_sample
from vision.train.dataset import IGNORE, build, code_labels, label
from vision.train.scenes import card_indices
from vision.train.train_index import main, make_data, net_inputs, train


def _props(rows: list[tuple[float, float, float, float, float]]) -> Proposals:
    a = np.array(rows, float)
    return Proposals(a[:, :2], a[:, 2:4], a[:, 4])


def test_labels_right_wrong_and_left_out():
    truth = [TrueIndex("Qh", np.array([50.0, 50.0]), np.array([0.0, 1.0]), 10.0),
             TrueIndex("7c", np.array([150.0, 50.0]), np.array([0.0, 1.0]), 10.0, whole=False),
             TrueIndex("5c", np.array([250.0, 50.0]), np.array([0.0, 1.0]), 10.0, whole=False, legible=True)]
    props = _props([
        (51, 51, 0, 1, 10),      # on the queen: right
        (50, 50, 0, -1, 10),     # the queen upside down: not an index
        (56, 50, 0.8, 0.6, 10),  # half a span off and askew: neither, left out
        (90, 90, 0, 1, 10),      # elsewhere: not an index
        (150, 52, 0, 1, 10),     # on the half-hidden seven: left out
        (250, 51, 0, 1, 10),     # on the five, its suit's tip under the next card: right
    ])
    rank, suit = label(props, truth)
    assert rank[0] == RANK_CLASSES.index("Q") and suit[0] == SUIT_CLASSES.index("h")
    assert rank[1] == NONE and suit[1] == IGNORE
    assert rank[2] == IGNORE
    assert rank[3] == NONE
    assert rank[4] == IGNORE
    assert rank[5] == RANK_CLASSES.index("5") and suit[5] == SUIT_CLASSES.index("c")


def test_joker_has_no_suit():
    assert code_labels("JOKER") == (RANK_CLASSES.index("JOKER"), IGNORE)
    assert code_labels("Td") == (RANK_CLASSES.index("T"), SUIT_CLASSES.index("d"))


def test_corner_samples_carry_their_truth():
    rng = np.random.default_rng(4)
    for _ in range(5):
        s = corner_sample(rng)
        assert s.image.shape == (128, 128, 3) and s.image.dtype == np.uint8
        assert s.indices, "the target card's index is always at least partly in view"
        for t in s.indices:
            assert abs(np.hypot(*t.down) - 1) < 1e-6 and t.span > 2


def test_the_same_seed_gives_the_same_patches():
    a, b = build(11, 3), build(11, 3)
    assert len(a) > 0
    np.testing.assert_array_equal(a.patches, b.patches)
    np.testing.assert_array_equal(a.rank, b.rank)
    assert (a.rank != NONE).any() and (a.rank == NONE).any()


def test_many_patches_are_made_inputs_a_chunk_at_a_time_as_all_at_once(monkeypatch: pytest.MonkeyPatch):
    # at once, 350 000 patches took 24 GB in temporaries and the trainer was killed
    rng = np.random.default_rng(3)
    patches = np.full((10, 40, 32, 3), 230, np.uint8)
    patches[:, 8:30, 6:26] = rng.integers(0, 255, (10, 22, 20, 3), dtype=np.uint8)  # print, paper round it
    monkeypatch.setattr(train_index, "INPUT_CHUNK", 3)
    chunked = net_inputs(patches)
    assert chunked.dtype == np.float32 and chunked.shape == (10, 40, 32, 2)
    np.testing.assert_array_equal(chunked, patch_input(patches))


def test_a_short_training_run_learns_something_and_saves(tmp_path: Path):
    data = make_data(seed=3, samples=40, workers=1)
    net = train(data, Shape(channels=(4, 8, 8), hidden=16), epochs=2, seed=0, batch=32, log=lambda m: None)
    assert isinstance(net, IndexNet)
    out = tmp_path / "w.npz"
    net.save(out)
    IndexNet.load(out)


def test_a_set_smaller_than_a_batch_still_moves_the_weights():
    # a few samples gave fewer patches than a batch, and the loop took no step at all: the
    # net came back as it went in (the going-on test, once the glyph search found more)
    data = make_data(seed=3, samples=10, workers=1)
    assert len(data) < 128
    shape = Shape(channels=(4, 8, 8), hidden=16)
    start = train(data, shape, epochs=0, seed=0, log=lambda m: None)
    went_on = train(data, shape, epochs=1, seed=0, log=lambda m: None, start=start)
    assert not np.array_equal(went_on.params["conv1.w"], start.params["conv1.w"])


def test_the_script_writes_loadable_weights(tmp_path: Path, capsys):
    out = tmp_path / "net.npz"
    assert main(["--out", str(out), "--samples", "20", "--scenes", "0", "--val-samples", "10", "--epochs", "1",
                 "--workers", "1", "--channels", "4,8,8", "--hidden", "16", "--real-epochs", "0"]) == 0
    assert IndexNet.load(out).shape.channels == (4, 8, 8)
    assert "wrote" in capsys.readouterr().out


def test_the_script_goes_on_from_given_weights_for_more_epochs_only_when_asked(tmp_path: Path, capsys):
    small = ["--samples", "20", "--scenes", "0", "--val-samples", "10", "--workers", "1",
             "--channels", "4,8,8", "--hidden", "16", "--real-epochs", "0"]
    first = tmp_path / "first.npz"
    assert main(["--out", str(first), "--epochs", "1", *small]) == 0
    same, more = tmp_path / "same.npz", tmp_path / "more.npz"
    assert main(["--out", str(same), "--start", str(first), *small]) == 0
    assert main(["--out", str(more), "--start", str(first), "--start-epochs", "1", "--seed", "2", *small]) == 0
    before, kept, went_on = (IndexNet.load(p) for p in (first, same, more))
    assert went_on.shape == before.shape
    # without --start-epochs only the gate is trained again; with it the convolutions move
    assert all(np.array_equal(kept.params[k], before.params[k]) for k in before.params if k.startswith("conv"))
    assert not np.array_equal(went_on.params["conv1.w"], before.params["conv1.w"])
    # more epochs with nothing to go on from is a mistake, said before any data is drawn
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "none.npz"), "--start-epochs", "1", *small])
    assert "--start-epochs goes on from weights" in capsys.readouterr().err
    assert not (tmp_path / "none.npz").exists()


def test_real_photo_candidates_twice_the_size_of_the_others_are_no_index():
    from vision.train.realtune import OVERSIZED, oversized

    span = np.array([20.0, 21.0, 19.0, 42.0, 20.0 * OVERSIZED * 0.95, 60.0])
    positive = np.array([True, True, True, True, True, False])
    # the rank glyph paired with the pip under it: twice the others; a perspective's 1.4
    # times is still an index; a candidate not taken for an index is left as it was
    assert oversized(span, positive).tolist() == [False, False, False, True, False, False]
    # one index in a photo is its own measure
    assert not oversized(np.array([20.0, 80.0]), np.array([True, False])).any()


@pytest.mark.parametrize("soft", [False, True])
def test_the_club_or_spade_script_tunes_the_given_weights_on_black_indices_alone(tmp_path: Path, capsys, soft: bool):
    from vision.train.train_black_suits import main as black_main

    start, out = tmp_path / "start.npz", tmp_path / "black.npz"
    net = train(make_data(seed=3, samples=20, workers=1), Shape(channels=(4, 8, 8), hidden=16), epochs=1, seed=0,
                batch=8, log=lambda m: None)
    net.save(start)
    assert black_main(["--out", str(out), "--start", str(start), "--scenes", "20", "--val-scenes", "1",
                       "--epochs", "1", "--workers", "1"] + (["--soft"] if soft else [])) == 0
    tuned = IndexNet.load(out)
    assert tuned.shape == net.shape
    assert not np.array_equal(tuned.params["conv1.w"], IndexNet.load(start).params["conv1.w"])
    printed = capsys.readouterr().out
    assert "black indices from 20 scenes" in printed and "wrote" in printed
    assert ("out of focus" in printed) == soft


def test_the_wide_witness_script_keeps_the_convolutions_it_starts_from_and_sees_the_wide_view(
        tmp_path: Path, capsys):
    from vision.cards.geometry import WIDE_VIEW
    from vision.cards.net import WeightsError
    from vision.train.train_black_suits import main as black_main

    start, out = tmp_path / "start.npz", tmp_path / "wide.npz"
    net = train(make_data(seed=3, samples=20, workers=1), Shape(channels=(4, 8, 8), hidden=16), epochs=1, seed=0,
                batch=8, log=lambda m: None)
    net.save(start)
    # no epoch: the net as training begins it
    assert black_main(["--wide", "--soft", "--out", str(out), "--start", str(start), "--scenes", "20",
                       "--val-scenes", "1", "--epochs", "0", "--workers", "1"]) == 0
    wide = IndexNet.load(out, (WIDE_VIEW.height, WIDE_VIEW.width))
    assert (wide.shape.height, wide.shape.width) == (40, 64) and wide.shape.channels == (4, 8, 8)
    # the convolutions are the start's (they slide over any patch); the dense layers, whose
    # input is twice as wide, begin afresh
    started = IndexNet.load(start)
    for k in (1, 2, 3):
        np.testing.assert_array_equal(wide.params[f"conv{k}.w"], started.params[f"conv{k}.w"])
    assert wide.params["fc.w"].shape[0] == 2 * net.params["fc.w"].shape[0]
    assert "black indices from 20 scenes out of focus" in capsys.readouterr().out
    # the reader's index patch is not what these weights were made for, and loading says so
    with pytest.raises(WeightsError, match="made for 40x64 patches"):
        IndexNet.load(out)
    # corner samples are the index net's alone: asked for seeing the wide view, a clear refusal
    with pytest.raises(ValueError, match="corner samples"):
        make_data(seed=3, samples=20, workers=1, view=WIDE_VIEW)


def test_the_soft_frame_script_tunes_the_given_weights_on_scenes_out_of_focus(tmp_path: Path, capsys):
    from vision.train.train_soft import main as soft_main

    start, out = tmp_path / "start.npz", tmp_path / "soft.npz"
    net = train(make_data(seed=3, samples=20, workers=1), Shape(channels=(4, 8, 8), hidden=16), epochs=1, seed=0,
                batch=8, log=lambda m: None)
    net.save(start)
    assert soft_main(["--out", str(out), "--start", str(start), "--labeller", str(start), "--scenes", "10",
                      "--val-scenes", "1", "--epochs", "1", "--real-epochs", "0", "--workers", "1"]) == 0
    tuned = IndexNet.load(out)
    assert tuned.shape == net.shape
    assert not np.array_equal(tuned.params["conv1.w"], IndexNet.load(start).params["conv1.w"])
    printed = capsys.readouterr().out
    assert "from 10 scenes out of focus" in printed and "wrote" in printed


def test_the_soft_frame_scripts_photos_are_blurred_copies_labelled_on_the_sharp_one():
    import cv2

    from vision.cards.indices import IndexReader, default_net
    from vision.train.realcards import photos, realcards_dir
    from vision.train.realtune import photo_patch_set
    from vision.train.train_soft import soft_photo_patch_set

    if not realcards_dir().is_dir():
        pytest.skip(f"the real photographs are not at {realcards_dir()}")
    photo = next(p for p in photos() if not p.held_out and len(p.cards) == 1)
    net = default_net()
    sharp = photo_patch_set(photo, IndexReader(net, min_index=0.0), np.random.default_rng(0), negatives=0)
    soft = soft_photo_patch_set(net, net, [photo], seed=0, copies=2)
    indices = soft.rank != NONE
    # each copy carries the sharp photo's indices, labelled alike, its print blurred
    assert int(indices.sum()) == 2 * int((sharp.rank != NONE).sum()) > 0
    assert sorted(soft.rank[indices].tolist()) == sorted(2 * sharp.rank[sharp.rank != NONE].tolist())
    ink = lambda p: float(np.abs(cv2.Laplacian(p.astype(np.float32), cv2.CV_32F)).mean())  # noqa: E731
    assert ink(soft.patches[indices][0]) < ink(sharp.patches[sharp.rank != NONE][0])


def _indices_of(seed: int, code: str) -> list[TrueIndex]:
    rendered = render(random_scene(seed, kind=KINDS[seed % len(KINDS)]))
    card = next(i for i, t in enumerate(rendered.truth) if t.code == code and t.face_up)
    return card_indices(rendered, card)


def test_an_index_with_only_its_suits_tip_covered_is_legible():
    # A fanned column (rendered table, seed 2195): each covered card's index shows but for
    # the tip of its suit under the next card. Such indices are labelled for training: never
    # shown one, the index net and the club-or-spade net read a club's top for a spade's.
    (five,) = _indices_of(2195, "5c")
    assert five.legible and not five.whole
    jack = _indices_of(2195, "Jc")  # on top of the column: both indices whole
    assert len(jack) == 2 and all(t.whole and t.legible for t in jack)
    # seed 2310: a five of clubs with one index legible, the other covered to its rank
    assert sorted((t.whole, t.legible) for t in _indices_of(2310, "5c")) == [(False, False), (False, True)]


def test_the_top_pip_script_learns_from_the_pips_the_reader_would_weigh(tmp_path: Path, capsys):
    from vision.cards.top_pips import PATCH
    from vision.train.scenes import TRAIN_SEED_BASE
    from vision.train.train_top_pips import SEED_OFFSET, scene_pips
    from vision.train.train_top_pips import main as top_main

    first = TRAIN_SEED_BASE + SEED_OFFSET + 100_000
    parts = [scene_pips(seed) for seed in range(first, first + 12)]
    patches = np.concatenate([p[0] for p in parts])
    clubs = np.concatenate([p[1] for p in parts])
    # both suits, each pip's ink within where it is in view
    assert patches.shape[1:] == (PATCH, PATCH, 2) and len(patches) == len(clubs) >= 10
    assert 0 < clubs.mean() < 1
    assert np.all(patches[..., 0] <= patches[..., 1] + 1e-6)
    out = tmp_path / "top.npz"
    assert top_main(["--out", str(out), "--scenes", "12", "--val-scenes", "4", "--epochs", "1",
                     "--workers", "1"]) == 0
    assert IndexNet.load(out, (PATCH, PATCH)).shape.height == PATCH
    assert "training pips" in capsys.readouterr().err


def test_the_joker_witness_script_learns_from_the_candidates_the_reader_would_ask_about(tmp_path: Path, capsys):
    from vision.cards.geometry import PATCH_H, PATCH_W
    from vision.train.scenes import TRAIN_SEED_BASE
    from vision.train.train_joker_witness import SEED_OFFSET, scene_candidates
    from vision.train.train_joker_witness import main as witness_main

    first = TRAIN_SEED_BASE + SEED_OFFSET + 100_000
    parts = [scene_candidates(seed) for seed in range(first, first + 12)]
    patches = np.concatenate([p[0] for p in parts])
    jokers = np.concatenate([p[1] for p in parts])
    # jokers sown in fans: covered jokers' words among the candidates, and other things too
    assert patches.shape[1:] == (PATCH_H, PATCH_W, 2) and len(patches) == len(jokers)
    assert 0 < jokers.sum() < len(jokers)
    out, data = tmp_path / "witness.npz", tmp_path / "candidates.npz"
    small = ["--scenes", "12", "--val-scenes", "4", "--epochs", "1", "--workers", "1", "--data", str(data)]
    assert witness_main(["--out", str(out), *small]) == 0
    err = capsys.readouterr().err
    assert f"{len(jokers)} candidates ({int(jokers.sum())} jokers)" in err
    assert IndexNet.load(out).shape.height == PATCH_H
    # the candidates kept are read back, not made again: the same weights
    again = tmp_path / "again.npz"
    assert witness_main(["--out", str(again), *small]) == 0
    first_net, second_net = IndexNet.load(out), IndexNet.load(again)
    assert all(np.array_equal(first_net.params[k], second_net.params[k]) for k in first_net.params)


def test_the_asked_club_or_spade_script_learns_from_the_indices_the_reader_asks_about(tmp_path: Path, capsys):
    from vision.cards.black_suits import WEIGHTS
    from vision.cards.geometry import INDEX_VIEW
    from vision.train.scenes import TRAIN_SEED_BASE
    from vision.train.train_asked_black_suits import SEED_OFFSET, scene_asked
    from vision.train.train_asked_black_suits import main as asked_main

    first = TRAIN_SEED_BASE + SEED_OFFSET + 100_000
    parts = [scene_asked(seed) for seed in range(first, first + 12)]
    patches = np.concatenate([p[0] for p in parts])
    clubs = np.concatenate([p[1] for p in parts])
    # the index patches of black cards the index net was unsure of, both suits among them
    assert patches.shape[1:] == (INDEX_VIEW.height, INDEX_VIEW.width, 3) and len(patches) == len(clubs) >= 10
    assert 0 < clubs.mean() < 1
    out = tmp_path / "asked.npz"
    assert asked_main(["--out", str(out), "--scenes", "12", "--epochs", "1", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert f"{len(patches)} asked indices" in err and "tuned:" in err
    tuned, start = IndexNet.load(out), IndexNet.load(WEIGHTS)
    assert tuned.shape == start.shape
    assert not np.array_equal(tuned.params["suit.w"], start.params["suit.w"])


def test_the_asked_club_or_spade_script_tunes_the_soft_frames_net_on_tables_out_of_focus(tmp_path: Path, capsys):
    from vision.cards.black_suits import SOFT_WEIGHTS
    from vision.train.scenes import TRAIN_SEED_BASE
    from vision.train.train_asked_black_suits import SEED_OFFSET, SOFT_SEEDS, scene_asked
    from vision.train.train_asked_black_suits import main as asked_main

    first = TRAIN_SEED_BASE + SEED_OFFSET + 100_000 + SOFT_SEEDS
    clubs = np.concatenate([scene_asked(seed, soft=True)[1] for seed in range(first, first + 4)])
    # out of focus, the soft frames' net is asked about many black cards
    assert len(clubs) >= 10 and 0 < clubs.mean() < 1
    out = tmp_path / "soft.npz"
    assert asked_main(["--soft", "--out", str(out), "--scenes", "4", "--epochs", "1", "--workers", "1"]) == 0
    assert f"{len(clubs)} asked indices" in capsys.readouterr().err
    tuned, start = IndexNet.load(out), IndexNet.load(SOFT_WEIGHTS)
    assert not np.array_equal(tuned.params["suit.w"], start.params["suit.w"])
