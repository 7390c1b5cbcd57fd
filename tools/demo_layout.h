// The data of `gpsimd demo`: where examples/demo.gpsimd keeps its inputs and results (the
// layout its header comment describes), the program of queues of its last step, and the
// shape of the expectations its checks compare the results with. demo.cc reads the
// model's results from this layout; the expectations are computed from the inputs by
// tests/demo_reference.h when gpsimd is built (tools/CMakeLists.txt).
#pragma once

#include <cstdint>
#include <string_view>

namespace gpsimd::demo {

constexpr unsigned kRows = 4;         // queries / tokens, one per partition
constexpr unsigned kKeys = 12;        // keys per query, two tiles of 6
constexpr uint32_t kScores = 0x000;   // FP32 [12]
constexpr uint32_t kQpos = 0x040;     // FP32
constexpr uint32_t kMasked = 0x080;   // BF16 [12]
constexpr uint32_t kLive = 0x0c0;     // INT16
constexpr uint32_t kBlended = 0x100;  // BF16 [12]
constexpr uint32_t kLogits = 0x200;   // FP32 [8]
constexpr uint32_t kTop = 0x240;      // FP32/UINT32 pairs [2 x 3]
constexpr unsigned kExperts = 8, kTopK = 3;
constexpr uint32_t kIds = 0x300;     // INT32 [16], partition 0
constexpr uint32_t kBounds = 0x400;  // INT32 [32], partition 0
constexpr unsigned kTokens = 16;
constexpr uint32_t kCausal = 0x500;     // FP32 [12], AffineSelect's output
constexpr unsigned kQueryStart = 8;     // query c sits at key position 8 + c
constexpr unsigned kFillRegister = 1;   // AffineSelect's fill_reg: -9984.0
constexpr uint32_t kRowMax = 0x0e0;     // BF16, partitions 0..3
constexpr uint32_t kRouted = 0x600;     // INT32 [16], partitions 0, 16, ..., 112 and 1
constexpr uint32_t kTokenList = 0x680;  // INT32 [17]
constexpr uint32_t kBest8 = 0x800;      // FP32 [8], Max8's output, largest first
constexpr uint32_t kExperts8 = 0x840;   // UINT32 [8], FindIndex8's output
constexpr uint32_t kScaled = 0x900;     // FP32 [12], scores * 1/sqrt(d)
constexpr uint32_t kAttn = 0x940;       // FP32 [12], the scaled scores causally masked
constexpr uint32_t kAttnMax = 0x980;    // FP32, Max8's largest: the row max
constexpr uint32_t kShifted = 0x9c0;    // FP32 [12], attn - row max
constexpr double kHeadDim = 64;
constexpr uint32_t kAcc = 0x100;     // FP32 [8] in PSUM, partitions 0..3
constexpr uint32_t kTile16 = 0xa00;  // BF16 [8], step 10's output
constexpr unsigned kAccCols = 8;
constexpr uint32_t kReducedMax = 0xa40;  // FP32, step 11's row max (TensorReduceArith)
constexpr uint32_t kOnes = 0xa80;        // FP32 [16], partition 0, step 11's Memset
constexpr uint32_t kRunning = 0xac0;     // FP32 [16], partition 0, step 11's cumsum

// Step 7's rows: the partitions of experts 0..7 (16e), then partition 1, which is skipped.
constexpr unsigned kRoutingRows = 9;
constexpr unsigned kRoutingPartitions[kRoutingRows] = {0, 16, 32, 48, 64, 80, 96, 112, 1};

// Step 12's program of queues, the producer/consumer of examples/producer_consumer.gpsimd:
// POOL's Iota writes the FP32 ramp 0.0 .. 15.0 into sbuf[p=0, off=0x100], DVE's Max8
// writes its 8 largest at sbuf[p=0, off=0x200]. The demo runs it with the semaphore (the
// first {} adds the update, the second the wait) and without.
constexpr std::string_view kQueueProgram = R"(.queue pool
Iota num_active_channels=1, out_dtype=FP32, channel_multiplier=0,
    src_data_pattern=0 num=[16,1,1,1], dst_mem_pattern=sbuf[p=0, off=0x100] num=[16,1,1,1]{}
.queue dve
Max8 num_active_channels=1, in_dtype=FP32, out_dtype=FP32,
    src_mem_pattern=sbuf[p=0, off=0x100] num=[16,1,1,1],
    dst_mem_pattern=sbuf[p=0, off=0x200] num=[8,1]{}
)";
constexpr std::string_view kQueueUpdate = ", update_mode=INC, update_idx=1";
constexpr std::string_view kQueueWait = ", wait_mode=GE, wait_idx=1, value=1";
constexpr unsigned kRampLength = 16;  // Iota's ramp
constexpr uint32_t kRampTop = 0x200;  // Max8's output

// What each check compares the model's results with (bit patterns of the dtypes the
// results have), in the order of the demo's steps.
struct Expected {
  // 1. RangeSelect x2: the masked scores (BF16) and the row maxima (FP32 accumulators).
  uint32_t masked[kRows][kKeys];
  uint32_t row_max[kRows];
  // 2. Sort: each row's 3 best (value, expert index) pairs.
  uint32_t top_value[kRows][kTopK];
  uint32_t top_index[kRows][kTopK];
  // 3. GetSequenceBounds: each token's [start, end).
  int32_t start[kTokens];
  int32_t end[kTokens];
  // 4. TensorScalarSelect: the blended scores (BF16).
  uint32_t blended[kRows][kKeys];
  // 5. AffineSelect: the causally masked scores (FP32).
  uint32_t causal[kRows][kKeys];
  // 6. DveReadAccumulator: the row maxima as BF16.
  uint32_t read_back[kRows];
  // 7. NonzeroWithCount: the rows of kRoutingPartitions, tokens, padding and count.
  uint32_t tokens[kRoutingRows][kTokens + 1];
  // 8. Max8 + FindIndex8: every row's 8 logits ranked, largest first, and their experts.
  uint32_t rank_value[kRows][kExperts];
  uint32_t rank_index[kRows][kExperts];
  // 9. The first steps of attention (FP32): scaled, masked, the row max, shifted.
  uint32_t scaled[kRows][kKeys];
  uint32_t attn[kRows][kKeys];
  uint32_t attn_max[kRows];
  uint32_t shifted[kRows][kKeys];
  // 10. Cast: the PSUM tile as BF16.
  uint32_t tile16[kRows][kAccCols];
  // 11. TensorReduceArith's row max of step 9's masked scores; TensorTensorScan's running
  // count of the tokens routed to expert 0 (a cumsum of step 7's partition 0 row).
  uint32_t reduced_max[kRows];
  uint32_t running[kTokens];
  // 12. Max8's output in the program of queues, with the wait ([0]) and without ([1]).
  uint32_t queue_top[2][8];

  bool operator==(const Expected&) const = default;
};

}  // namespace gpsimd::demo
