// The CPU kernels for fp32 compute on x86-64 with AVX2, FMA and F16C (app/kernels/cpu_kernels.py
// compiles them once per machine and calls them through ctypes).
//
// --- linear layers ---------------------------------------------------------------------------------
// y = x W^T + b with W held in 16 bits (bf16 or fp16) and x, y, b in fp32, for CPUs without 16-bit
// arithmetic. A checkpoint whose weights are exact in one of these formats (a bf16 LLM, Whisper's
// fp16 weights) computed in fp32 thus streams half the bytes of fp32 weight copies, with the same
// products: the conversion to fp32 is exact.
//
// W is packed by app/kernels/linear.py as [ceil(N / 16)][K][16]: for each block of 16 output columns,
// the 16 weights of input k lie together. bf16 is ordered c0, c8, c1, c9, ..., c7, c15, so that one
// 32-byte load gives columns 0-7 by a shift and 8-15 by a mask, leaving the shuffle ports alone; fp16
// is in column order, converted 8 at a time by F16C. Columns past N are zero. Blocks are shared out
// among the OpenMP threads of the caller (torch's own runtime: torch.set_num_threads applies), and
// each block is applied to every row of x while it sits in L1, so the weights stream from memory once
// per call.

#include <immintrin.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

// Rows x inputs above which rounding a linear's input to int8 is shared out among threads.
#define PARALLEL_ELEMENTS_LINEAR (1 << 16)

// How many inputs ahead (2 KiB of weights) to prefetch while the current ones are multiplied:
// measured 15-25% faster at batch 8 than the hardware prefetcher alone.
#define PREFETCH 64

struct Bf16 {
    using T = uint16_t;
    static inline void load(const uint16_t* w, __m256& low, __m256& high) {
        __m256i v = _mm256_loadu_si256((const __m256i*)w);
        low = _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
        high = _mm256_castsi256_ps(_mm256_and_si256(v, _mm256_set1_epi32((int)0xFFFF0000u)));
    }
};

struct Fp16 {
    using T = uint16_t;
    static inline void load(const uint16_t* w, __m256& low, __m256& high) {
        low = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)w));
        high = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(w + 8)));
    }
};

// R rows x 16 columns. S sets of accumulators over interleaved inputs keep short tiles at enough
// independent FMA chains to hide the FMA latency.
template <class W, int R, int S>
static inline void tile(const float* x, int64_t ldx, int64_t K, const typename W::T* w, const float* bias,
                        float* y, int64_t ldy, int cols) {
    __m256 acc[S][R][2];
#pragma GCC unroll 8
    for (int s = 0; s < S; s++)
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) acc[s][r][0] = acc[s][r][1] = _mm256_setzero_ps();
    int64_t k = 0;
    for (; k + S <= K; k += S) {
#pragma GCC unroll 8
        for (int s = 0; s < S; s++) {
            __m256 low, high;
            W::load(w + (k + s) * 16, low, high);
            _mm_prefetch((const char*)(w + (k + s + PREFETCH) * 16), _MM_HINT_T0);
#pragma GCC unroll 8
            for (int r = 0; r < R; r++) {
                __m256 v = _mm256_broadcast_ss(x + r * ldx + k + s);
                acc[s][r][0] = _mm256_fmadd_ps(v, low, acc[s][r][0]);
                acc[s][r][1] = _mm256_fmadd_ps(v, high, acc[s][r][1]);
            }
        }
    }
    for (; k < K; k++) {
        __m256 low, high;
        W::load(w + k * 16, low, high);
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) {
            __m256 v = _mm256_broadcast_ss(x + r * ldx + k);
            acc[0][r][0] = _mm256_fmadd_ps(v, low, acc[0][r][0]);
            acc[0][r][1] = _mm256_fmadd_ps(v, high, acc[0][r][1]);
        }
    }
    __m256 b0 = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
    __m256 b1 = bias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        __m256 v0 = b0, v1 = b1;
#pragma GCC unroll 8
        for (int s = 0; s < S; s++) {
            v0 = _mm256_add_ps(v0, acc[s][r][0]);
            v1 = _mm256_add_ps(v1, acc[s][r][1]);
        }
        if (cols == 16) {
            _mm256_storeu_ps(y + r * ldy, v0);
            _mm256_storeu_ps(y + r * ldy + 8, v1);
        } else {
            float last[16];
            _mm256_storeu_ps(last, v0);
            _mm256_storeu_ps(last + 8, v1);
            memcpy(y + r * ldy, last, cols * sizeof(float));
        }
    }
}

template <class W>
static inline void rows(int count, const float* x, int64_t ldx, int64_t K, const typename W::T* w, const float* bias,
                        float* y, int64_t ldy, int cols) {
    switch (count) {
        case 1: tile<W, 1, 4>(x, ldx, K, w, bias, y, ldy, cols); break;
        case 2: tile<W, 2, 2>(x, ldx, K, w, bias, y, ldy, cols); break;
        case 3: tile<W, 3, 2>(x, ldx, K, w, bias, y, ldy, cols); break;
        case 4: tile<W, 4, 1>(x, ldx, K, w, bias, y, ldy, cols); break;
        case 5: tile<W, 5, 1>(x, ldx, K, w, bias, y, ldy, cols); break;
        default: tile<W, 6, 1>(x, ldx, K, w, bias, y, ldy, cols); break;
    }
}

template <class W>
static void linear(const float* x, int64_t M, int64_t K, int64_t ldx, const uint16_t* w, int64_t N, const float* bias,
                   float* y, int64_t ldy) {
    const int64_t blocks = (N + 15) / 16;
#pragma omp parallel for schedule(static)
    for (int64_t block = 0; block < blocks; block++) {
        const uint16_t* wb = w + block * K * 16;
        const float* bb = bias ? bias + block * 16 : nullptr;
        const int cols = (int)(N - block * 16 < 16 ? N - block * 16 : 16);
        // 6-row tiles, the most that fit the 16 registers; 8 rows as 6 + 2 measured 1.25x faster than 4 + 4
        for (int64_t m = 0; m < M; m += 6) {
            const int count = (int)(M - m < 6 ? M - m : 6);
            rows<W>(count, x + m * ldx, ldx, K, wb, bb, y + m * ldy + block * 16, ldy, cols);
        }
    }
}

// x: [M, K] (row stride ldx), w: packed as above, bias: [ceil(N / 16) * 16] or null, y: [M, N] (row stride ldy).
extern "C" void linear_bf16_weights(const float* x, int64_t M, int64_t K, int64_t ldx, const uint16_t* w, int64_t N,
                                    const float* bias, float* y, int64_t ldy) {
    linear<Bf16>(x, M, K, ldx, w, N, bias, y, ldy);
}

extern "C" void linear_fp16_weights(const float* x, int64_t M, int64_t K, int64_t ldx, const uint16_t* w, int64_t N,
                                    const float* bias, float* y, int64_t ldy) {
    linear<Fp16>(x, M, K, ldx, w, N, bias, y, ldy);
}

// --- linear layers over 4- and 8-bit weights ----------------------------------------------------
// y = x W^T + b with W quantized per group of 32 inputs, as app/kernels/quantize.py packs it: for
// each block of 16 output columns, one record per group, in input order:
//   Q4: 16 fp16 scales, 16 fp16 mins, then 8 quads of 32 bytes (w = q * scale + min, q in 0..15):
//       byte 4j + i of quad t holds q[column j][input 4t + i] in its low nibble and q[column j + 8][same
//       input] in its high nibble;
//   Q8: 16 fp16 scales, then 8 quads of 64 bytes (w = q * scale, q in -127..127): columns 0-7 as above
//       in the first 32 bytes, columns 8-15 in the next 32.
// A GGUF Q4_0/Q4_1/Q4_K weight is exact in Q4 (the same 32-input groups and affine grid), so the
// engine streams the checkpoint's own bits. As in llama.cpp, the rows of x are rounded to int8 per
// group of 32 (scale = max |x| / 127) and each quad of inputs is one integer dot product per column
// (AVX-512 VNNI where the CPU has it, else AVX2's maddubs + madd): a weight register serves 8 (AVX2) or
// 16 (AVX-512) columns x 4 inputs in one instruction, and a record is unpacked once for every row of a tile. The
// result is exactly x rounded so, times the dequantized W, up to the order of the fp32 sums.

#include <vector>

static inline __m256 half8(const uint8_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)p)); }

// A tile's rows of x rounded to int8 per group, interleaved by group: group g of row r (of R) at q + (g * R + r) * 32,
// its scale at scale[g * R + r] and scale * the sum of its values at sum[g * R + r]. A tile then reads each group
// at fixed offsets from three pointers; with three pointers per row, they spilled out of the registers.
struct RoundedTile {
    const int8_t* q;
    const float* scale;
    const float* sum;
};

// x's rows rounded into tiles of `height` rows (the last may be shorter): the tile at row m starts at q + m * K,
// scale + m * groups and sum + m * groups.
static void round_rows(const float* x, int64_t M, int64_t K, int64_t ldx, int64_t height, int8_t* q, float* scale,
                       float* sum) {
    const int64_t groups = K / 32;
#pragma omp parallel for schedule(static) if (M * K >= PARALLEL_ELEMENTS_LINEAR)
    for (int64_t r = 0; r < M; r++) {
        const int64_t m = r / height * height, rows = M - m < height ? M - m : height, in_tile = r - m;
        for (int64_t g = 0; g < groups; g++) {
            const float* v = x + r * ldx + g * 32;
            float top = 0.f;
            for (int i = 0; i < 32; i++) top = fabsf(v[i]) > top ? fabsf(v[i]) : top;
            const float inverse = top > 0.f ? 127.f / top : 0.f;
            int total = 0;
            int8_t* out = q + m * K + (g * rows + in_tile) * 32;
            for (int i = 0; i < 32; i++) {
                const int value = (int)nearbyintf(v[i] * inverse);
                out[i] = (int8_t)value;
                total += value;
            }
            scale[m * groups + g * rows + in_tile] = top / 127.f;
            sum[m * groups + g * rows + in_tile] = top / 127.f * (float)total;
        }
    }
}

// acc += per 32-bit lane, the sum over its 4 bytes of u8 weights x s8 inputs. A group's 4-bit weights
// (u4 x s8) take the narrow form: AVX2 sums maddubs' 16-bit pairs over the group's 8 quads (at most
// 8 x 2 x 15 x 127 < 2^15) and widens them once per group with madd, one multiply per quad instead of
// two; 8-bit weights fill 16 bits in one quad.
struct DotAvx2 {
    static inline __m256i dot(__m256i acc, __m256i w, __m256i x) {
        const __m256i pairs = _mm256_maddubs_epi16(w, x);  // |pair| <= 2 x 127 x 127: no saturation
        return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
    }
    static inline __m256i dot4(__m256i acc, __m256i w, __m256i x) { return _mm256_add_epi16(acc, _mm256_maddubs_epi16(w, x)); }
    static inline __m256i widen4(__m256i acc) { return _mm256_madd_epi16(acc, _mm256_set1_epi16(1)); }
};

// The two weight registers of quad t (columns 0-7, 8-15) as u8, and whether they are signed.
struct Q4 {
    static constexpr int64_t RECORD = 64 + 8 * 32;
    static constexpr bool SIGNED = false;
    static inline void quad(const uint8_t* record, int t, __m256i& low, __m256i& high) {
        const __m256i v = _mm256_loadu_si256((const __m256i*)(record + 64 + t * 32));
        const __m256i nibble = _mm256_set1_epi8(15);
        low = _mm256_and_si256(v, nibble);
        high = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
    }
#ifdef __AVX512VNNI__
    // All 16 columns in one register: the quad's 32 bytes in both halves, the upper half shifted to its
    // high nibbles (columns 8-15), so lane j holds column j.
    static inline __m512i wide(const uint8_t* record, int t) {
        const __m512i v = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i*)(record + 64 + t * 32)));
        return _mm512_and_si512(_mm512_mask_srli_epi16(v, 0xFFFF0000u, v, 4), _mm512_set1_epi8(15));
    }
#endif
};

struct Q8 {
    static constexpr int64_t RECORD = 32 + 8 * 64;
    static constexpr bool SIGNED = true;
    static inline void quad(const uint8_t* record, int t, __m256i& low, __m256i& high) {
        low = _mm256_loadu_si256((const __m256i*)(record + 32 + t * 64));
        high = _mm256_loadu_si256((const __m256i*)(record + 64 + t * 64));
    }
#ifdef __AVX512VNNI__
    static inline __m512i wide(const uint8_t* record, int t) { return _mm512_loadu_si512(record + 32 + t * 64); }
#endif
};

// How many groups ahead a record is prefetched: a batch-1 decode streams the weights at the memory's rate only
// with several KiB in flight per core (docs/benchmarks.md, "An AMX CPU").
static constexpr int64_t PREFETCH_RECORDS = 12;

// The record PREFETCH_RECORDS groups ahead of this one, into L1 while this one is multiplied.
template <class Q>
static inline void prefetch_ahead(const uint8_t* record) {
    for (int64_t ahead = 0; ahead < Q::RECORD; ahead += 64)
        _mm_prefetch((const char*)(record + PREFETCH_RECORDS * Q::RECORD + ahead), _MM_HINT_T0);
}

// R rows x 16 columns in AVX2 registers. Signed (Q8) weights go in as |w| with the sign moved onto x, as
// the dot products take unsigned bytes on one side.
template <class Q, int R>
static inline void qtile(const RoundedTile& rows, int64_t groups, const uint8_t* w, const float* bias, float* y,
                         int64_t ldy, int cols) {
    __m256 acc[R][2];
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
    for (int64_t g = 0; g < groups; g++) {
        const uint8_t* record = w + g * Q::RECORD;
        prefetch_ahead<Q>(record);
        __m256i dots[R][2];
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) dots[r][0] = dots[r][1] = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int t = 0; t < 8; t++) {
            __m256i low, high;
            Q::quad(record, t, low, high);
            __m256i low_abs = low, high_abs = high;
            if (Q::SIGNED) {
                low_abs = _mm256_abs_epi8(low);
                high_abs = _mm256_abs_epi8(high);
            }
#pragma GCC unroll 8
            for (int r = 0; r < R; r++) {
                const __m256i x = _mm256_set1_epi32(*(const int32_t*)(rows.q + (g * R + r) * 32 + t * 4));
                if (Q::SIGNED) {
                    dots[r][0] = DotAvx2::dot(dots[r][0], low_abs, _mm256_sign_epi8(x, low));
                    dots[r][1] = DotAvx2::dot(dots[r][1], high_abs, _mm256_sign_epi8(x, high));
                } else {
                    dots[r][0] = DotAvx2::dot4(dots[r][0], low, x);
                    dots[r][1] = DotAvx2::dot4(dots[r][1], high, x);
                }
                // Add each product as it comes: left free, GCC computed a group's products first, spilled them to the
                // stack and summed them after, a store and a load per product (docs/benchmarks.md, "A Zen 3 with AVX2 only").
                __asm__("" : "+x"(dots[r][0]), "+x"(dots[r][1]));
            }
        }
        if (!Q::SIGNED) {
#pragma GCC unroll 8
            for (int r = 0; r < R; r++) {
                dots[r][0] = DotAvx2::widen4(dots[r][0]);
                dots[r][1] = DotAvx2::widen4(dots[r][1]);
            }
        }
        const __m256 s0 = half8(record), s1 = half8(record + 16);
#pragma GCC unroll 8
        for (int r = 0; r < R; r++) {
            const __m256 xs = _mm256_set1_ps(rows.scale[g * R + r]);
            acc[r][0] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dots[r][0]), _mm256_mul_ps(s0, xs), acc[r][0]);
            acc[r][1] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dots[r][1]), _mm256_mul_ps(s1, xs), acc[r][1]);
            if (!Q::SIGNED) {  // + min * (the sum of the group's rounded inputs)
                const __m256 sum = _mm256_set1_ps(rows.sum[g * R + r]);
                acc[r][0] = _mm256_fmadd_ps(half8(record + 32), sum, acc[r][0]);
                acc[r][1] = _mm256_fmadd_ps(half8(record + 48), sum, acc[r][1]);
            }
        }
    }
    const __m256 b0 = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
    const __m256 b1 = bias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        float out[16];
        _mm256_storeu_ps(out, _mm256_add_ps(acc[r][0], b0));
        _mm256_storeu_ps(out + 8, _mm256_add_ps(acc[r][1], b1));
        memcpy(y + r * ldy, out, cols * sizeof(float));
    }
}

#ifdef __AVX512VNNI__
// The same tile in AVX-512 registers, where the CPU has VNNI (app/kernels/cpu_kernels.py adds the flags):
// a quad's 16 columns are one register, so a row takes one integer dot product per quad where the 256-bit
// tile takes two, and the 32 registers hold the accumulators of up to 12 rows (each quad's weights, unpacked once,
// serve them all). Prefills and batched decodes, bound by these products, gain; a batch-1 decode streams the same
// bytes. Signed 8-bit weights go in with their sign bit flipped (q + 128, unsigned: VNNI sums u8 x s8 in 32 bits,
// so nothing saturates), which adds 128 x the sum of the group's rounded inputs: taken off as a 4-bit weight's
// minimum is added, min = -128 x scale.
template <class Q, int R>
static inline void qtile_wide(const RoundedTile& rows, int64_t groups, const uint8_t* w, const float* bias, float* y,
                              int64_t ldy, int cols) {
    constexpr int S = R < 3 ? 2 : 1;  // independent sums per row, so that short tiles hide the dot's latency
    __m512 acc[R];
#pragma GCC unroll 12
    for (int r = 0; r < R; r++) acc[r] = _mm512_setzero_ps();
    for (int64_t g = 0; g < groups; g++) {
        const uint8_t* record = w + g * Q::RECORD;
        prefetch_ahead<Q>(record);
        __m512i dots[S][R];
#pragma GCC unroll 12
        for (int s = 0; s < S; s++)
#pragma GCC unroll 12
            for (int r = 0; r < R; r++) dots[s][r] = _mm512_setzero_si512();
#pragma GCC unroll 12
        for (int t = 0; t < 8; t++) {
            __m512i weights = Q::wide(record, t);
            if (Q::SIGNED) weights = _mm512_xor_si512(weights, _mm512_set1_epi8((char)0x80));
#pragma GCC unroll 12
            for (int r = 0; r < R; r++)
                dots[t % S][r] = _mm512_dpbusd_epi32(dots[t % S][r], weights,
                                                     _mm512_set1_epi32(*(const int32_t*)(rows.q + (g * R + r) * 32 + t * 4)));
        }
        const __m512 scales = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)record));
        const __m512 mins = Q::SIGNED ? _mm512_mul_ps(scales, _mm512_set1_ps(-128.f))
                                      : _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(record + 32)));
#pragma GCC unroll 12
        for (int r = 0; r < R; r++) {
            const __m512i dot = S == 2 ? _mm512_add_epi32(dots[0][r], dots[S - 1][r]) : dots[0][r];
            acc[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(scales, _mm512_set1_ps(rows.scale[g * R + r])), acc[r]);
            acc[r] = _mm512_fmadd_ps(mins, _mm512_set1_ps(rows.sum[g * R + r]), acc[r]);
        }
    }
    const __m512 b = bias ? _mm512_loadu_ps(bias) : _mm512_setzero_ps();
    const __mmask16 columns = (__mmask16)((1u << cols) - 1);
#pragma GCC unroll 12
    for (int r = 0; r < R; r++) _mm512_mask_storeu_ps(y + r * ldy, columns, _mm512_add_ps(acc[r], b));
}

template <class Q>
struct Tiles {  // 12 rows a tile: 12 sums and 12 dot products fill 24 of the 32 registers
    static constexpr int ROWS = 12;
    static inline void run(int count, const RoundedTile& rows, int64_t groups, const uint8_t* w, const float* bias,
                           float* y, int64_t ldy, int cols) {
        switch (count) {
            case 1: qtile_wide<Q, 1>(rows, groups, w, bias, y, ldy, cols); break;
            case 2: qtile_wide<Q, 2>(rows, groups, w, bias, y, ldy, cols); break;
            case 3: qtile_wide<Q, 3>(rows, groups, w, bias, y, ldy, cols); break;
            case 4: qtile_wide<Q, 4>(rows, groups, w, bias, y, ldy, cols); break;
            case 5: qtile_wide<Q, 5>(rows, groups, w, bias, y, ldy, cols); break;
            case 6: qtile_wide<Q, 6>(rows, groups, w, bias, y, ldy, cols); break;
            case 7: qtile_wide<Q, 7>(rows, groups, w, bias, y, ldy, cols); break;
            case 8: qtile_wide<Q, 8>(rows, groups, w, bias, y, ldy, cols); break;
            case 9: qtile_wide<Q, 9>(rows, groups, w, bias, y, ldy, cols); break;
            case 10: qtile_wide<Q, 10>(rows, groups, w, bias, y, ldy, cols); break;
            case 11: qtile_wide<Q, 11>(rows, groups, w, bias, y, ldy, cols); break;
            default: qtile_wide<Q, 12>(rows, groups, w, bias, y, ldy, cols); break;
        }
    }
};
#else
template <class Q>
struct Tiles {  // 3 rows: their 6 fp32 and 6 16-bit sums, a quad's 2 weight registers, the mask and x fill the 16 registers
    static constexpr int ROWS = 3;
    static inline void run(int count, const RoundedTile& rows, int64_t groups, const uint8_t* w, const float* bias,
                           float* y, int64_t ldy, int cols) {
        if (count == 1) qtile<Q, 1>(rows, groups, w, bias, y, ldy, cols);
        else if (count == 2) qtile<Q, 2>(rows, groups, w, bias, y, ldy, cols);
        else qtile<Q, 3>(rows, groups, w, bias, y, ldy, cols);
    }
};
#endif

template <class Q>
static void qlinear(const int8_t* q, const float* scale, const float* sum, int64_t M, int64_t K, const uint8_t* w, int64_t N,
                    const float* bias, float* y, int64_t ldy) {
    const int64_t blocks = (N + 15) / 16, groups = K / 32;
    const int64_t block_bytes = groups * Q::RECORD;
#pragma omp parallel for schedule(static)
    for (int64_t block = 0; block < blocks; block++) {
        const uint8_t* wb = w + block * block_bytes;
        const float* bb = bias ? bias + block * 16 : nullptr;
        const int cols = (int)(N - block * 16 < 16 ? N - block * 16 : 16);
        for (int64_t m = 0; m < M; m += Tiles<Q>::ROWS) {
            const int count = (int)(M - m < Tiles<Q>::ROWS ? M - m : Tiles<Q>::ROWS);
            const RoundedTile tile = {q + m * K, scale + m * groups, sum + m * groups};
            Tiles<Q>::run(count, tile, groups, wb, bb, y + m * ldy + block * 16, ldy, cols);
        }
    }
}

template <class Q>
static void quantized_linear(const float* x, int64_t M, int64_t K, int64_t ldx, const uint8_t* w, int64_t N,
                             const float* bias, float* y, int64_t ldy) {
    if (M == 0) return;
    const int64_t groups = K / 32;
    std::vector<int8_t> q(M * K);
    std::vector<float> scale(M * groups), sum(M * groups);
    round_rows(x, M, K, ldx, Tiles<Q>::ROWS, q.data(), scale.data(), sum.data());
    qlinear<Q>(q.data(), scale.data(), sum.data(), M, K, w, N, bias, y, ldy);
}

#if defined(__AMX_BF16__) && defined(__AVX512BF16__)
// --- AMX: prefills over 4- and 8-bit weights ----------------------------------------------------
// Where the CPU has AMX (app/kernels/cpu_kernels.py adds its flags), a linear over AMX_MIN_ROWS rows or more (a
// prefill) multiplies in bf16 tiles: one TDPBF16PS adds 16 rows x 32 inputs times 32 inputs x 16 columns into fp32
// sums that stay in the tile for all of K. The same integer products in int8 tiles were no faster than VNNI: their
// sums must leave the tile to be scaled every 32 inputs (each group has its own scales), and those stores and
// reloads cost what the tile saved. Here each thread dequantizes two blocks of 16 columns into bf16 tile rows
// (w = q * scale + min, rounded once to bf16) and applies them to every 32 rows of x, converted once to bf16. The
// dequantizing is paid once per block whatever the rows, so the tiles pay only past a few dozen rows (see
// docs/benchmarks.md). The result is x and W each rounded to bf16, summed in fp32: closer to the exact product
// than a decode's int8 rows.
#include <omp.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AMX_MIN_ROWS 64

// Linux lends a process the tile registers' state only on request (arch_prctl ARCH_REQ_XCOMP_PERM, XTILEDATA).
static bool amx_usable() {
    static const bool granted = syscall(SYS_arch_prctl, 0x1023, 18) == 0;
    return granted;
}

// tmm0-3: fp32 sums of 16 rows x 16 columns (2 row tiles x 2 column blocks); tmm4-5: 16 rows x 32 inputs of x;
// tmm6-7: 32 inputs x 16 columns of W, as pairs of inputs (a row holds inputs 2i and 2i + 1 of each column).
struct TileConfig {
    uint8_t palette = 1, start_row = 0, reserved[14] = {};
    uint16_t colsb[16] = {64, 64, 64, 64, 64, 64, 64, 64};
    uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

// Inputs 4t + i of the quad's 16 columns (lane j: column j) as fp32 weights.
template <class Q>
static inline __m512 quad_input(__m512i quad, int i, __m512 scales, __m512 mins) {
    const __m512i q = Q::SIGNED ? _mm512_srai_epi32(_mm512_slli_epi32(quad, 24 - 8 * i), 24)
                                : _mm512_and_si512(_mm512_srli_epi32(quad, 8 * i), _mm512_set1_epi32(255));
    return _mm512_fmadd_ps(_mm512_cvtepi32_ps(q), scales, mins);
}

// A block's records -> bf16 tile rows [K / 2][16 columns][2 inputs].
template <class Q>
static void dequantize_block(const uint8_t* w, int64_t groups, uint16_t* out) {
    // bf16 of a's 16 lanes then b's -> lane j holds (a_j, b_j)
    const __m512i pairs = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8,
                                           23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    for (int64_t g = 0; g < groups; g++) {
        const uint8_t* record = w + g * Q::RECORD;
        const __m512 scales = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)record));
        const __m512 mins = Q::SIGNED ? _mm512_setzero_ps() : _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(record + 32)));
        for (int t = 0; t < 8; t++) {
            const __m512i quad = Q::wide(record, t);
            uint16_t* row = out + (g * 16 + 2 * t) * 32;
            for (int half = 0; half < 2; half++) {
                const __m512 a = quad_input<Q>(quad, 2 * half, scales, mins), b = quad_input<Q>(quad, 2 * half + 1, scales, mins);
                const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(b, a);  // a's 16, then b's 16
                _mm512_storeu_si512(row + half * 32, _mm512_permutexvar_epi16(pairs, both));
            }
        }
    }
}

// fp32 rows -> bf16 tiles of 16 rows x 32 inputs, each one contiguous KiB (tile t = r / 16, k / 32 at
// out + (t * K / 32 + k / 32) * 512), padded with zero rows to `padded`: a tile load then reads 16 consecutive cache
// lines, where rows K inputs apart made it gather them from 16 places.
static void rows_to_bf16(const float* x, int64_t M, int64_t K, int64_t ldx, int64_t padded, uint16_t* out) {
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < padded; r++) {
        uint16_t* tiles = out + r / 16 * 16 * K + r % 16 * 32;
        for (int64_t k = 0; k < K; k += 32) {
            __m512i v = _mm512_setzero_si512();
            if (r < M) v = (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(x + r * ldx + k + 16), _mm512_loadu_ps(x + r * ldx + k));
            _mm512_storeu_si512(tiles + k * 16, v);
        }
    }
}

// y rows m.. (up to 16, those below M) for a block of columns, from the tile's fp32 sums.
static inline void store_sums(const float* sums, const float* bias, float* y, int64_t ldy, int64_t m, int64_t M, int cols) {
    if (cols <= 0) return;
    const __m512 b = bias ? _mm512_loadu_ps(bias) : _mm512_setzero_ps();
    const __mmask16 columns = (__mmask16)((1u << cols) - 1);
    for (int r = 0; r < 16 && m + r < M; r++)
        _mm512_mask_storeu_ps(y + (m + r) * ldy, columns, _mm512_add_ps(_mm512_loadu_ps(sums + r * 16), b));
}

// Scratch on 64-byte boundaries: a tile row then is one cache line, not two (a tile load splitting lines is
// several times slower).
template <class T>
struct Aligned {
    T* data;
    explicit Aligned(size_t count) : data((T*)aligned_alloc(64, (count * sizeof(T) + 63) / 64 * 64)) {}  // null: none
    ~Aligned() { free(data); }
    Aligned(const Aligned&) = delete;
    Aligned& operator=(const Aligned&) = delete;
};

// Rows m..m + 16 * ROW_TILES of x (bf16 tiles as rows_to_bf16 lays them out) times two dequantized blocks; each
// tile load is followed by a product that uses it, so loads and products overlap.
template <int ROW_TILES>
static inline void tile_rows(const uint16_t* x, int64_t m, int64_t K, const uint16_t* w0, const uint16_t* w1, float* sums) {
    _tile_zero(0);
    _tile_zero(1);
    if (ROW_TILES == 2) {
        _tile_zero(2);
        _tile_zero(3);
    }
    for (int64_t k = 0; k < K; k += 32) {
        _tile_loadd(4, x + m * K + k * 16, 64);
        _tile_loadd(6, w0 + k * 16, 64);
        _tile_dpbf16ps(0, 4, 6);
        _tile_loadd(7, w1 + k * 16, 64);
        _tile_dpbf16ps(1, 4, 7);
        if (ROW_TILES == 2) {
            _tile_loadd(5, x + (m + 16) * K + k * 16, 64);
            _tile_dpbf16ps(2, 5, 6);
            _tile_dpbf16ps(3, 5, 7);
        }
    }
    _tile_stored(0, sums, 64);
    _tile_stored(1, sums + 256, 64);
    if (ROW_TILES == 2) {
        _tile_stored(2, sums + 512, 64);
        _tile_stored(3, sums + 768, 64);
    }
}

// Whether tile_linear ran (false: its scratch could not be allocated).
template <class Q>
static bool tile_linear(const float* x, int64_t M, int64_t K, int64_t ldx, const uint8_t* w, int64_t N, const float* bias,
                        float* y, int64_t ldy) {
    const int64_t padded = (M + 15) / 16 * 16, groups = K / 32, blocks = (N + 15) / 16, block_bytes = groups * Q::RECORD;
    const int64_t block_elements = K * 16;  // a block's bf16 weights
    Aligned<uint16_t> xb(padded * K), weights((size_t)omp_get_max_threads() * 2 * block_elements);
    if (!xb.data || !weights.data) return false;
    rows_to_bf16(x, M, K, ldx, padded, xb.data);
    const TileConfig config;
#pragma omp parallel
    {
        _tile_loadconfig(&config);  // the tile registers are per thread
        uint16_t *w0 = weights.data + (size_t)omp_get_thread_num() * 2 * block_elements, *w1 = w0 + block_elements;
        alignas(64) float sums[4 * 256];
#pragma omp for schedule(static)
        for (int64_t pair = 0; pair < (blocks + 1) / 2; pair++) {
            const int64_t block = 2 * pair;
            dequantize_block<Q>(w + block * block_bytes, groups, w0);
            if (block + 1 < blocks) dequantize_block<Q>(w + (block + 1) * block_bytes, groups, w1);
            else memset(w1, 0, block_elements * sizeof(uint16_t));
            asm volatile("" ::: "memory");  // the tile loads below read these stores (GCC's tile loads name no memory)
            const int cols0 = (int)(N - block * 16 < 16 ? N - block * 16 : 16), cols1 = (int)(N - block * 16 - 16 < 16 ? N - block * 16 - 16 : 16);
            const float* b0 = bias ? bias + block * 16 : nullptr;
            const float* b1 = bias && cols1 > 0 ? bias + block * 16 + 16 : nullptr;
            for (int64_t m = 0; m < padded; m += 32) {
                const bool two = m + 16 < padded;
                if (two) tile_rows<2>(xb.data, m, K, w0, w1, sums);
                else tile_rows<1>(xb.data, m, K, w0, w1, sums);
                store_sums(sums, b0, y + block * 16, ldy, m, M, cols0);
                store_sums(sums + 256, b1, y + block * 16 + 16, ldy, m, M, cols1);
                if (two) {
                    store_sums(sums + 512, b0, y + block * 16, ldy, m + 16, M, cols0);
                    store_sums(sums + 768, b1, y + block * 16 + 16, ldy, m + 16, M, cols1);
                }
            }
        }
        _tile_release();
    }
    return true;
}
#endif

// The rows from which quantized linears multiply in AMX tiles (0: they never do).
extern "C" void tile_min_rows(int64_t* rows) {
#if defined(__AMX_BF16__) && defined(__AVX512BF16__)
    *rows = amx_usable() ? AMX_MIN_ROWS : 0;
#else
    *rows = 0;
#endif
}

template <class Q>
static void tiled_or_not(const float* x, int64_t M, int64_t K, int64_t ldx, const uint8_t* w, int64_t N, const float* bias,
                         float* y, int64_t ldy) {
#if defined(__AMX_BF16__) && defined(__AVX512BF16__)
    if (M >= AMX_MIN_ROWS && amx_usable() && tile_linear<Q>(x, M, K, ldx, w, N, bias, y, ldy)) return;
#endif
    quantized_linear<Q>(x, M, K, ldx, w, N, bias, y, ldy);
}

// x: [M, K] (row stride ldx, K a multiple of 32), w: records as above, bias: [ceil(N / 16) * 16] or
// null, y: [M, N] (row stride ldy).
extern "C" void linear_q4_weights(const float* x, int64_t M, int64_t K, int64_t ldx, const uint8_t* w, int64_t N,
                                  const float* bias, float* y, int64_t ldy) {
    tiled_or_not<Q4>(x, M, K, ldx, w, N, bias, y, ldy);
}

extern "C" void linear_q8_weights(const float* x, int64_t M, int64_t K, int64_t ldx, const uint8_t* w, int64_t N,
                                  const float* bias, float* y, int64_t ldy) {
    tiled_or_not<Q8>(x, M, K, ldx, w, N, bias, y, ldy);
}

// --- the small per-layer ops of a decode step ---------------------------------------------------
// In torch each is several ops of ~5-30 us of dispatch for a few KiB of data; here each is one call.
// Rows are shared out among threads only when there are enough of them to pay for it (prefill).

#include <math.h>

static const int64_t PARALLEL_ELEMENTS = 1 << 16;

// exp of 8 floats (the Cephes expf polynomial: within 2 ulp over the clamped range), since the C
// library's expf is one scalar call per element.
static inline __m256 exp8(__m256 x) {
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.3f)), _mm256_set1_ps(88.3f));
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.f)));
    const __m256i scale = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(scale));
}

// h += delta (when given); out = h / sqrt(mean(h^2) + eps) * weight, row by row.
extern "C" void add_rms_norm(float* h, const float* delta, int64_t rows, int64_t cols, const float* weight, float eps,
                             float* out) {
#pragma omp parallel for schedule(static) if (rows * cols >= PARALLEL_ELEMENTS)
    for (int64_t r = 0; r < rows; r++) {
        float* x = h + r * cols;
        float sum = 0.f;
        if (delta) {
            const float* d = delta + r * cols;
#pragma omp simd reduction(+ : sum)
            for (int64_t i = 0; i < cols; i++) {
                x[i] += d[i];
                sum += x[i] * x[i];
            }
        } else {
#pragma omp simd reduction(+ : sum)
            for (int64_t i = 0; i < cols; i++) sum += x[i] * x[i];
        }
        const float inv = 1.f / sqrtf(sum / (float)cols + eps);
        float* y = out + r * cols;
#pragma omp simd
        for (int64_t i = 0; i < cols; i++) y[i] = x[i] * inv * weight[i];
    }
}

// Rotary embedding in place on the first `heads` heads of each row: x * cos + rotate_half(x) * sin,
// with cos and sin given per row ([rows, head_dim]) and sin already signed (-sin over the first
// half), so that rotate_half is a swap of halves.
extern "C" void rotary(float* x, int64_t rows, int64_t row_stride, int64_t heads, int64_t head_dim, const float* cos,
                       const float* sin) {
    const int64_t half = head_dim / 2;
#pragma omp parallel for schedule(static) if (rows * heads * head_dim >= PARALLEL_ELEMENTS)
    for (int64_t r = 0; r < rows; r++) {
        const float* c = cos + r * head_dim;
        const float* s = sin + r * head_dim;
        for (int64_t h = 0; h < heads; h++) {
            float* v = x + r * row_stride + h * head_dim;
#pragma omp simd
            for (int64_t i = 0; i < half; i++) {
                const float a = v[i], b = v[i + half];
                v[i] = a * c[i] + b * s[i];
                v[i + half] = b * c[i + half] + a * s[i + half];
            }
        }
    }
}

// out = silu(gate) * up, with each row of gate_up holding gate then up.
extern "C" void silu_mul(const float* gate_up, int64_t rows, int64_t width, float* out) {
#pragma omp parallel for schedule(static) if (rows * width >= PARALLEL_ELEMENTS)
    for (int64_t r = 0; r < rows; r++) {
        const float* g = gate_up + r * 2 * width;
        const float* u = g + width;
        float* y = out + r * width;
        int64_t i = 0;
        for (; i + 8 <= width; i += 8) {
            const __m256 gv = _mm256_loadu_ps(g + i);
            const __m256 e = exp8(_mm256_sub_ps(_mm256_setzero_ps(), gv));
            _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_div_ps(gv, _mm256_add_ps(_mm256_set1_ps(1.f), e)),
                                                  _mm256_loadu_ps(u + i)));
        }
        for (; i < width; i++) y[i] = g[i] / (1.f + expf(-g[i])) * u[i];
    }
}

// The sums of eight vectors, one per lane.
static inline __m256 sum8(__m256 a0, __m256 a1, __m256 a2, __m256 a3, __m256 a4, __m256 a5, __m256 a6, __m256 a7) {
    const __m256 low = _mm256_hadd_ps(_mm256_hadd_ps(a0, a1), _mm256_hadd_ps(a2, a3));
    const __m256 high = _mm256_hadd_ps(_mm256_hadd_ps(a4, a5), _mm256_hadd_ps(a6, a7));
    return _mm256_add_ps(_mm256_permute2f128_ps(low, high, 0x20), _mm256_permute2f128_ps(low, high, 0x31));
}

static inline float sum_lanes(__m256 v) {
    float lanes[8];
    _mm256_storeu_ps(lanes, v);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7];
}

// The KV cache holds fp32 or bf16 (half the bytes to read; bf16 -> fp32 is exact).
struct KvF32 {
    using T = float;
    static inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
};

struct KvBf16 {
    using T = uint16_t;
    static inline __m256 load8(const uint16_t* p) {
        const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i*)p));
        return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
    }
};

// One query head (V vectors of 8) against n keys: scores[j] = scale * q . key_j, eight keys at a
// time so that eight independent FMA chains run and one horizontal sum serves all eight.
template <class E, int V>
static inline void head_scores(const float* q, const typename E::T* const* keys, int64_t n, float scale, float* scores) {
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 acc[8];
#pragma GCC unroll 8
        for (int key = 0; key < 8; key++) acc[key] = _mm256_setzero_ps();
#pragma GCC unroll 16
        for (int v = 0; v < V; v++) {
            const __m256 qv = _mm256_loadu_ps(q + 8 * v);
#pragma GCC unroll 8
            for (int key = 0; key < 8; key++) acc[key] = _mm256_fmadd_ps(qv, E::load8(keys[j + key] + 8 * v), acc[key]);
        }
        const __m256 sums = sum8(acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7]);
        _mm256_storeu_ps(scores + j, _mm256_mul_ps(sums, _mm256_set1_ps(scale)));
    }
    for (; j < n; j++) {
        __m256 acc = _mm256_setzero_ps();
#pragma GCC unroll 16
        for (int v = 0; v < V; v++) acc = _mm256_fmadd_ps(_mm256_loadu_ps(q + 8 * v), E::load8(keys[j] + 8 * v), acc);
        scores[j] = sum_lanes(acc) * scale;
    }
}

// scores -> softmax weights, in place.
static inline void softmax(float* s, int64_t n) {
    float top = s[0];
    for (int64_t j = 1; j < n; j++) top = s[j] > top ? s[j] : top;
    __m256 sums = _mm256_setzero_ps();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(s + j), _mm256_set1_ps(top)));
        _mm256_storeu_ps(s + j, e);
        sums = _mm256_add_ps(sums, e);
    }
    float total = sum_lanes(sums);
    for (; j < n; j++) {
        s[j] = expf(s[j] - top);
        total += s[j];
    }
    const __m256 inv = _mm256_set1_ps(1.f / total);
    for (j = 0; j + 8 <= n; j += 8) _mm256_storeu_ps(s + j, _mm256_mul_ps(_mm256_loadu_ps(s + j), inv));
    for (; j < n; j++) s[j] *= 1.f / total;
}

// out = sum_j p[j] * value_j for one head, the V output vectors held in registers.
template <class E, int V>
static inline void head_values(const float* p, const typename E::T* const* values, int64_t n, float* out) {
    __m256 acc[V];
#pragma GCC unroll 16
    for (int v = 0; v < V; v++) acc[v] = _mm256_setzero_ps();
    for (int64_t j = 0; j < n; j++) {
        const __m256 weight = _mm256_set1_ps(p[j]);
#pragma GCC unroll 16
        for (int v = 0; v < V; v++) acc[v] = _mm256_fmadd_ps(weight, E::load8(values[j] + 8 * v), acc[v]);
    }
#pragma GCC unroll 16
    for (int v = 0; v < V; v++) _mm256_storeu_ps(out + 8 * v, acc[v]);
}

template <class E, int V>
static void attend(const float* q, int64_t group, const typename E::T* const* keys, const typename E::T* const* values,
                   int64_t n, float scale, float* scores, float* out) {
    for (int64_t g = 0; g < group; g++) {
        head_scores<E, V>(q + g * 8 * V, keys, n, scale, scores);
        softmax(scores, n);
        head_values<E, V>(scores, values, n, out + g * 8 * V);
    }
}

// Single-query attention of decode rows over the paged cache, reading keys and values where they
// lie (no gathered copy). q: [rows, q_heads, head_dim] (row stride q_stride); cache: [slots, 2,
// kv_heads, head_dim]; slots: [rows, width], row r's positions 0..lengths[r]-1; out: [rows, q_heads,
// head_dim]; head_dim is 32, 64 or 128 (app/kernels/cpu_kernels.py checks). The q_heads / kv_heads
// query heads of a KV head read the same keys and values while they are in cache.
template <class E>
static void decode_attention(const float* q, int64_t q_stride, int64_t rows, int64_t q_heads, int64_t kv_heads,
                             int64_t head_dim, const typename E::T* cache, const int64_t* slots, int64_t width,
                             const int64_t* lengths, float scale, float* out) {
    using T = typename E::T;
    const int64_t group = q_heads / kv_heads;
#pragma omp parallel for collapse(2) schedule(static) if (rows * kv_heads > 1)
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t kvh = 0; kvh < kv_heads; kvh++) {
            const int64_t n = lengths[r];
            float* scores = new float[n];
            const T** keys = new const T*[2 * n];
            const T** values = keys + n;
            for (int64_t j = 0; j < n; j++) {
                keys[j] = cache + (slots[r * width + j] * 2 * kv_heads + kvh) * head_dim;
                values[j] = keys[j] + kv_heads * head_dim;
            }
            const float* qr = q + r * q_stride + kvh * group * head_dim;
            float* o = out + (r * q_heads + kvh * group) * head_dim;
            switch (head_dim) {
                case 32: attend<E, 4>(qr, group, keys, values, n, scale, scores, o); break;
                case 64: attend<E, 8>(qr, group, keys, values, n, scale, scores, o); break;
                default: attend<E, 16>(qr, group, keys, values, n, scale, scores, o); break;
            }
            delete[] keys;
            delete[] scores;
        }
    }
}

extern "C" void decode_attention_f32(const float* q, int64_t q_stride, int64_t rows, int64_t q_heads, int64_t kv_heads,
                                     int64_t head_dim, const float* cache, const int64_t* slots, int64_t width,
                                     const int64_t* lengths, float scale, float* out) {
    decode_attention<KvF32>(q, q_stride, rows, q_heads, kv_heads, head_dim, cache, slots, width, lengths, scale, out);
}

extern "C" void decode_attention_bf16(const float* q, int64_t q_stride, int64_t rows, int64_t q_heads, int64_t kv_heads,
                                      int64_t head_dim, const uint16_t* cache, const int64_t* slots, int64_t width,
                                      const int64_t* lengths, float scale, float* out) {
    decode_attention<KvBf16>(q, q_stride, rows, q_heads, kv_heads, head_dim, cache, slots, width, lengths, scale, out);
}
