"""The GIL is released while instructions execute.

With a long switch interval the interpreter never takes the GIL away from a thread; it
changes hands only when the holder releases it. A second thread is woken just before a
long program runs: if run() held the GIL, that thread could not execute a single
bytecode until run() returned, and its counter would still be 0 when read right after.
"""

import sys
import threading
import time

import gpsimd


def long_program(copies):
    # TensorScalarSelect filling one element 2^22 times on each of 16 partitions (a
    # destination walk of step 0): a few tens of milliseconds a word.
    word = gpsimd.encode(
        "TensorScalarSelect", num_active_channels=16, dtype="UINT32", pred_imm_dtype="UINT32",
        pred_imm=0, src1_imm=7,
        src0_mem_pattern={"offset": 0, "step": [0, 0, 0], "num": [1024, 64, 64]},
        dst_mem_pattern={"offset": 64, "step": [0, 0, 0], "num": [1024, 64, 64]})
    return [word] * copies


def test_run_releases_the_gil():
    m = gpsimd.Machine()
    # Make the program long (about half a second) whatever the speed of the machine.
    copies = 1
    while True:
        t0 = time.perf_counter()
        m.run(long_program(copies))
        if time.perf_counter() - t0 >= 0.5 or copies >= 1 << 12:
            break
        copies *= 2
    program = long_program(copies)

    count = [0]
    go, stop = threading.Event(), threading.Event()

    def spin():
        go.wait()
        while not stop.is_set():
            count[0] += 1
            time.sleep(0.001)  # releases the GIL, so run() can return promptly

    old = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    t = threading.Thread(target=spin)
    t.start()
    try:
        go.set()
        t0 = time.perf_counter()
        m.run(program)
        during = count[0]
        elapsed = time.perf_counter() - t0
    finally:
        stop.set()
        go.set()
        t.join()
        sys.setswitchinterval(old)
    assert elapsed >= 0.1, f"the program ran only {elapsed:.3f} s: the check is inconclusive"
    assert during >= 1, "no Python bytecode ran while the instructions executed"
    assert m.semaphores.sum() == 0 and m.sbuf_view("UINT32", 15, 64, 1)[0] == 7
