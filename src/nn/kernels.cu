// CUDA kernels of the glimpse sampler (src/nn/sampler.rs) and the sprite renderer
// (src/nn/render.rs), forward and backward. They follow the CPU kernels line by line: all
// arithmetic in double (compiled with --fmad=false, so in the same order as the host code), values
// stored in the tensor dtype T (float or double). Gradient scatters use atomicAdd, so results are
// reproducible to floating-point tolerance (not bit for bit) on the GPU.

#include <stdint.h>

#define MAXC 4  // colour channels handled by the renderer kernels (SILOT uses 3)

__device__ __forceinline__ double grid_u(int i, int len) {
    return len <= 1 ? -1.0 : -1.0 + 2.0 * (double)i / (double)(len - 1);
}

__device__ __forceinline__ void atomic_add(float *p, double v) { atomicAdd(p, (float)v); }
__device__ __forceinline__ void atomic_add(double *p, double v) { atomicAdd(p, v); }

__device__ __forceinline__ double warp_sum(double v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// ---------------------------------------------------------------------------------------------
// Glimpse sampler: img (B,C,H,W), boxes (B,K,4) = (yc, xc, h, w) -> out (B,K,C,GH,GW).

// One thread per glimpse pixel (b, k, r, c): the box arithmetic once, then every channel.
// 32-bit position indices (the launcher checks B*K*GH*GW < 2^32): 64-bit div/mod made the
// per-element form of this kernel index-bound.
template <typename T>
__device__ void glimpse_fwd(const T *img, const T *boxes, T *out, int B, int C, int H, int W,
                            int K, int GH, int GW, int ROW) {
    const unsigned int pix = (unsigned int)GH * GW;
    const unsigned int n = (unsigned int)B * K * pix;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        const unsigned int bk = i / pix, rc = i - bk * pix;
        const int r = (int)(rc / GW), c = (int)(rc - (unsigned int)r * GW);
        const unsigned int b = bk / K;
        const T *bx = boxes + (size_t)bk * 4;
        double yc = (double)bx[0], xc = (double)bx[1], bh = (double)bx[2], bw = (double)bx[3];
        double y = ((double)H - 1.0) * (yc + bh * grid_u(r, GH) / 2.0);
        double x = ((double)W - 1.0) * (xc + bw * grid_u(c, GW) / 2.0);
        double y0 = floor(y), x0 = floor(x);
        double fy = y - y0, fx = x - x0;
        long long yi0 = (long long)y0, xi0 = (long long)x0;
        // The four bilinear corners; those outside the image contribute nothing.
        double wgt[4];
        size_t off[4];
        bool inside[4];
        for (int dy = 0; dy < 2; dy++) {
            for (int dx = 0; dx < 2; dx++) {
                const long long yi = yi0 + dy, xi = xi0 + dx;
                const bool ok = yi >= 0 && yi < H && xi >= 0 && xi < W;
                const double wy = dy ? fy : 1.0 - fy, wx = dx ? fx : 1.0 - fx;
                inside[dy * 2 + dx] = ok;
                wgt[dy * 2 + dx] = wy * wx;
                off[dy * 2 + dx] = ok ? (size_t)(yi * W + xi) : 0;
            }
        }
        const size_t hw = (size_t)H * W;
        for (int ch = 0; ch < C; ch++) {
            const T *src = img + ((size_t)b * C + ch) * hw;
            double v = 0.0;
            for (int j = 0; j < 4; j++)
                if (inside[j]) v += wgt[j] * (double)src[off[j]];
            out[(size_t)bk * ROW + (size_t)ch * pix + rc] = (T)v;  // ROW >= C*pix
        }
    }
}

// One block per (b, k); threads over glimpse pixels. g_img (B,C,H,W) must be zeroed; g_box
// (B,K,4) is written (each block owns its box).
template <typename T>
__device__ void glimpse_bwd(const T *img, const T *boxes, const T *grad, T *g_img, T *g_box,
                            int C, int H, int W, int K, int GH, int GW) {
    __shared__ double red[4][32];
    size_t bk = blockIdx.x;
    size_t b = bk / K;
    const T *bx = boxes + bk * 4;
    double yc = (double)bx[0], xc = (double)bx[1], bh = (double)bx[2], bw = (double)bx[3];
    double hm1 = (double)H - 1.0, wm1 = (double)W - 1.0;
    const T *go = grad + bk * (size_t)C * GH * GW;
    const T *im = img + b * (size_t)C * H * W;
    T *gi = g_img + b * (size_t)C * H * W;
    double acc[4] = {0.0, 0.0, 0.0, 0.0};
    int plane = GH * GW;
    for (int p = threadIdx.x; p < plane; p += blockDim.x) {
        int r = p / GW, c = p % GW;
        double uy = grid_u(r, GH), ux = grid_u(c, GW);
        double y = hm1 * (yc + bh * uy / 2.0);
        double x = wm1 * (xc + bw * ux / 2.0);
        double y0 = floor(y), x0 = floor(x);
        double fy = y - y0, fx = x - x0;
        long long yi0 = (long long)y0, xi0 = (long long)x0;
        double dvdy = 0.0, dvdx = 0.0;
        for (int ch = 0; ch < C; ch++) {
            double g = (double)go[(size_t)ch * plane + p];
            if (g == 0.0) continue;
            size_t base = (size_t)ch * H * W;
            for (int dy = 0; dy < 2; dy++) {
                long long yi = yi0 + dy;
                if (yi < 0 || yi >= H) continue;
                double wy = dy ? fy : 1.0 - fy, dwy = dy ? 1.0 : -1.0;
                for (int dx = 0; dx < 2; dx++) {
                    long long xi = xi0 + dx;
                    if (xi < 0 || xi >= W) continue;
                    double wx = dx ? fx : 1.0 - fx, dwx = dx ? 1.0 : -1.0;
                    size_t o = base + yi * W + xi;
                    atomic_add(&gi[o], g * (wy * wx));
                    double v = (double)im[o];
                    dvdy += g * (dwy * wx) * v;
                    dvdx += g * (wy * dwx) * v;
                }
            }
        }
        acc[0] += dvdy * hm1;
        acc[1] += dvdx * wm1;
        acc[2] += dvdy * hm1 * uy / 2.0;
        acc[3] += dvdx * wm1 * ux / 2.0;
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = (blockDim.x + 31) >> 5;
    for (int j = 0; j < 4; j++) {
        double s = warp_sum(acc[j]);
        if (lane == 0) red[j][warp] = s;
    }
    __syncthreads();
    if (threadIdx.x < 4) {
        double s = 0.0;
        for (int w = 0; w < nwarps; w++) s += red[threadIdx.x][w];
        g_box[bk * 4 + threadIdx.x] = (T)s;
    }
}

// ---------------------------------------------------------------------------------------------
// Sprite renderer: sprites (B,K,C+2,SH,SW) = [colour, alpha, importance], boxes (B,K,4) =
// (top, left, height, width), bg (B,C,H,W) -> out (B,C,H,W). One thread per output pixel, looping
// over the sprites in order (the CPU's summation order). mode 0 = code, 1 = softmax (temperature).

struct Cover {
    double sy, sx;
};

// Sprite coordinates of pixel (py, px) for box bx (shared memory), or false if not covered.
__device__ __forceinline__ bool cover(const double *bx, double cy, double cx, int SH, int SW,
                                      Cover *cv) {
    double top = bx[0], left = bx[1], height = bx[2], width = bx[3];
    if (!(height > 0.0 && width > 0.0 && isfinite(top) && isfinite(left) && isfinite(height) &&
          isfinite(width)))
        return false;
    double sy = -0.5 + (double)SH * (cy - top) / height;
    if (!(sy >= -1.0 && sy <= (double)SH)) return false;
    double sx = -0.5 + (double)SW * (cx - left) / width;
    if (!(sx >= -1.0 && sx <= (double)SW)) return false;
    cv->sy = sy;
    cv->sx = sx;
    return true;
}

struct Nb {
    int n;
    int off[4];
    double wt[4], dwy[4], dwx[4];
};

__device__ __forceinline__ void sprite_nb(double sy, double sx, int SH, int SW, Nb *nb) {
    double y0 = floor(sy), x0 = floor(sx);
    double fy = sy - y0, fx = sx - x0;
    long long yi0 = (long long)y0, xi0 = (long long)x0;
    nb->n = 0;
    for (int dy = 0; dy < 2; dy++) {
        long long yi = yi0 + dy;
        if (yi < 0 || yi >= SH) continue;
        double wy = dy ? fy : 1.0 - fy, dwy = dy ? 1.0 : -1.0;
        for (int dx = 0; dx < 2; dx++) {
            long long xi = xi0 + dx;
            if (xi < 0 || xi >= SW) continue;
            double wx = dx ? fx : 1.0 - fx, dwx = dx ? 1.0 : -1.0;
            int j = nb->n++;
            nb->off[j] = (int)(yi * SW + xi);
            nb->wt[j] = wy * wx;
            nb->dwy[j] = dwy * wx;
            nb->dwx[j] = wy * dwx;
        }
    }
}

struct Smp {
    double alpha, imp, inside;
    double beta[MAXC];
};

template <typename T>
__device__ __forceinline__ void sample(const T *sp, const Nb &nb, const double *bgv, int C,
                                       int plane, Smp *s) {
    double alpha = 0.0, imp = 0.0, inside = 0.0;
    for (int j = 0; j < nb.n; j++) {
        alpha += nb.wt[j] * (double)sp[(size_t)C * plane + nb.off[j]];
        imp += nb.wt[j] * (double)sp[(size_t)(C + 1) * plane + nb.off[j]];
        inside += nb.wt[j];
    }
    for (int ch = 0; ch < C; ch++) {
        double acc = 0.0;
        for (int j = 0; j < nb.n; j++) acc += nb.wt[j] * (double)sp[(size_t)ch * plane + nb.off[j]];
        s->beta[ch] = acc + bgv[ch] * (1.0 - inside);
    }
    s->alpha = alpha;
    s->imp = imp;
    s->inside = inside;
}

__device__ __forceinline__ void weight(double imp, int mode, double temp, double *w, double *dw) {
    if (mode == 0) {
        *w = imp;
        *dw = 1.0;
    } else {
        double e = exp(imp / temp);
        *w = e;
        *dw = e / temp;
    }
}

// 0 = background, 1 = single, 2 = weighted
__device__ __forceinline__ int render_case(unsigned count, double sumw, int mode) {
    if (count == 0) return 0;
    if (count == 1 && mode == 0) return 1;
    if (sumw > 0.0 && isfinite(sumw)) return 2;
    return 0;
}

// Per-pixel accumulation over all sprites of image b.
template <typename T>
__device__ void accumulate(const T *sp_b, const double *bx_s, const double *bgv, int K, int C,
                           int SH, int SW, double cy, double cx, int mode, double temp,
                           unsigned *count, double *sumw, double *sumwv, double *single) {
    int plane = SH * SW;
    size_t slen = (size_t)(C + 2) * plane;
    *count = 0;
    *sumw = 0.0;
    for (int ch = 0; ch < C; ch++) sumwv[ch] = single[ch] = 0.0;
    for (int k = 0; k < K; k++) {
        Cover cv;
        if (!cover(bx_s + 4 * k, cy, cx, SH, SW, &cv)) continue;
        Nb nb;
        sprite_nb(cv.sy, cv.sx, SH, SW, &nb);
        Smp s;
        sample(sp_b + k * slen, nb, bgv, C, plane, &s);
        double w, dw;
        weight(s.imp, mode, temp, &w, &dw);
        *count += 1;
        *sumw += w;
        for (int ch = 0; ch < C; ch++) {
            double v = s.alpha * s.beta[ch] + (1.0 - s.alpha) * bgv[ch];
            sumwv[ch] += w * v;
            single[ch] = v;
        }
    }
}

template <typename T>
__device__ void load_boxes(const T *boxes, double *bx_s, int K) {
    size_t b = blockIdx.y;
    for (int i = threadIdx.x; i < 4 * K; i += blockDim.x) bx_s[i] = (double)boxes[b * 4 * K + i];
    __syncthreads();
}

template <typename T>
__device__ void render_fwd(const T *sprites, const T *boxes, const T *bg, T *out, int K, int C,
                           int SH, int SW, int H, int W, int mode, double temp) {
    extern __shared__ double bx_s[];
    load_boxes(boxes, bx_s, K);
    size_t b = blockIdx.y;
    int hw = H * W;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= hw) return;
    int py = p / W, px = p % W;
    double cy = ((double)py + 0.5) / (double)H, cx = ((double)px + 0.5) / (double)W;
    const T *bg_b = bg + b * (size_t)C * hw;
    double bgv[MAXC];
    for (int ch = 0; ch < C; ch++) bgv[ch] = (double)bg_b[(size_t)ch * hw + p];
    unsigned count;
    double sumw, sumwv[MAXC], single[MAXC];
    const T *sp_b = sprites + b * (size_t)K * (C + 2) * SH * SW;
    accumulate(sp_b, bx_s, bgv, K, C, SH, SW, cy, cx, mode, temp, &count, &sumw, sumwv, single);
    int cs = render_case(count, sumw, mode);
    T *o = out + b * (size_t)C * hw;
    for (int ch = 0; ch < C; ch++) {
        double v = cs == 0 ? bgv[ch] : (cs == 1 ? single[ch] : sumwv[ch] / sumw);
        o[(size_t)ch * hw + p] = (T)v;
    }
}

// Backward: g_sp (B,K,C+2,SH,SW) and g_box (B,K,4) zeroed (atomic scatters), g_bg (B,C,H,W)
// written. Every thread of a block walks all K sprites so that box gradients can be summed per
// warp before the atomic add.
template <typename T>
__device__ void render_bwd(const T *sprites, const T *boxes, const T *bg, const T *grad, T *g_sp,
                           T *g_box, T *g_bg, int K, int C, int SH, int SW, int H, int W, int mode,
                           double temp) {
    extern __shared__ double bx_s[];
    load_boxes(boxes, bx_s, K);
    size_t b = blockIdx.y;
    int hw = H * W;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    bool active = p < hw;
    int pp = active ? p : 0;
    int py = pp / W, px = pp % W;
    double cy = ((double)py + 0.5) / (double)H, cx = ((double)px + 0.5) / (double)W;
    int plane = SH * SW;
    size_t slen = (size_t)(C + 2) * plane;
    const T *bg_b = bg + b * (size_t)C * hw;
    const T *gr_b = grad + b * (size_t)C * hw;
    const T *sp_b = sprites + b * (size_t)K * slen;
    T *gsp_b = g_sp + b * (size_t)K * slen;
    double bgv[MAXC], g[MAXC], gbg[MAXC];
    for (int ch = 0; ch < C; ch++) {
        bgv[ch] = (double)bg_b[(size_t)ch * hw + pp];
        g[ch] = (double)gr_b[(size_t)ch * hw + pp];
        gbg[ch] = 0.0;
    }
    unsigned count;
    double sumw, sumwv[MAXC], single[MAXC];
    accumulate(sp_b, bx_s, bgv, K, C, SH, SW, cy, cx, mode, temp, &count, &sumw, sumwv, single);
    int cs = render_case(count, sumw, mode);
    if (cs == 0)
        for (int ch = 0; ch < C; ch++) gbg[ch] += g[ch];
    bool walk = active && cs != 0;
    int lane = threadIdx.x & 31;
    for (int k = 0; k < K; k++) {
        Cover cv;
        bool on = walk && cover(bx_s + 4 * k, cy, cx, SH, SW, &cv);
        double gb0 = 0.0, gb1 = 0.0, gb2 = 0.0, gb3 = 0.0;
        if (on) {
            const T *sp = sp_b + k * slen;
            T *gs = gsp_b + k * slen;
            Nb nb;
            sprite_nb(cv.sy, cv.sx, SH, SW, &nb);
            Smp s;
            sample(sp, nb, bgv, C, plane, &s);
            double w, dw;
            weight(s.imp, mode, temp, &w, &dw);
            double gv[MAXC];
            double gw = 0.0;
            for (int ch = 0; ch < C; ch++) {
                if (cs == 1) {
                    gv[ch] = g[ch];
                } else {
                    double v = s.alpha * s.beta[ch] + (1.0 - s.alpha) * bgv[ch];
                    double out = sumwv[ch] / sumw;
                    gv[ch] = g[ch] * w / sumw;
                    gw += g[ch] * (v - out) / sumw;
                }
            }
            double ga = 0.0;
            for (int ch = 0; ch < C; ch++) {
                ga += gv[ch] * (s.beta[ch] - bgv[ch]);
                gbg[ch] += gv[ch] * ((1.0 - s.alpha) + s.alpha * (1.0 - s.inside));
            }
            double gimp = gw * dw;
            double gsy = 0.0, gsx = 0.0;
            for (int j = 0; j < nb.n; j++) {
                int o = nb.off[j];
                double wt = nb.wt[j];
                double gpos = ga * (double)sp[(size_t)C * plane + o] +
                              gimp * (double)sp[(size_t)(C + 1) * plane + o];
                atomic_add(&gs[(size_t)C * plane + o], ga * wt);
                atomic_add(&gs[(size_t)(C + 1) * plane + o], gimp * wt);
                for (int ch = 0; ch < C; ch++) {
                    double gbeta = gv[ch] * s.alpha;
                    atomic_add(&gs[(size_t)ch * plane + o], gbeta * wt);
                    gpos += gbeta * ((double)sp[(size_t)ch * plane + o] - bgv[ch]);
                }
                gsy += gpos * nb.dwy[j];
                gsx += gpos * nb.dwx[j];
            }
            const double *bx = bx_s + 4 * k;
            gb0 = gsy * (-(double)SH / bx[2]);
            gb1 = gsx * (-(double)SW / bx[3]);
            gb2 = gsy * (-(cv.sy + 0.5) / bx[2]);
            gb3 = gsx * (-(cv.sx + 0.5) / bx[3]);
        }
        if (__any_sync(0xffffffffu, on)) {
            gb0 = warp_sum(gb0);
            gb1 = warp_sum(gb1);
            gb2 = warp_sum(gb2);
            gb3 = warp_sum(gb3);
            if (lane == 0) {
                T *dst = g_box + (b * K + k) * 4;
                atomic_add(&dst[0], gb0);
                atomic_add(&dst[1], gb1);
                atomic_add(&dst[2], gb2);
                atomic_add(&dst[3], gb3);
            }
        }
    }
    if (active) {
        T *gg = g_bg + b * (size_t)C * hw;
        for (int ch = 0; ch < C; ch++) gg[(size_t)ch * hw + p] = (T)gbg[ch];
    }
}

// ---------------------------------------------------------------------------------------------
// Entry points (C names, one per dtype).

#define GLIMPSE(NAME, T)                                                                        \
    extern "C" __global__ void glimpse_fwd_##NAME(const T *img, const T *boxes, T *out, int B, \
                                                  int C, int H, int W, int K, int GH, int GW,   \
                                                  int ROW) {                                    \
        glimpse_fwd<T>(img, boxes, out, B, C, H, W, K, GH, GW, ROW);                           \
    }                                                                                           \
    extern "C" __global__ void glimpse_bwd_##NAME(const T *img, const T *boxes, const T *grad, \
                                                  T *buf, long long box_off, int C, int H,     \
                                                  int W, int K, int GH, int GW) {              \
        glimpse_bwd<T>(img, boxes, grad, buf, buf + box_off, C, H, W, K, GH, GW);              \
    }
GLIMPSE(f32, float)
GLIMPSE(f64, double)

#define RENDER(NAME, T)                                                                          \
    extern "C" __global__ void render_fwd_##NAME(const T *sprites, const T *boxes, const T *bg, \
                                                 T *out, int K, int C, int SH, int SW, int H,   \
                                                 int W, int mode, double temp) {                \
        render_fwd<T>(sprites, boxes, bg, out, K, C, SH, SW, H, W, mode, temp);                 \
    }                                                                                            \
    extern "C" __global__ void render_bwd_##NAME(                                               \
        const T *sprites, const T *boxes, const T *bg, const T *grad, T *buf, long long box_off, \
        long long bg_off, int K, int C, int SH, int SW, int H, int W, int mode, double temp) {  \
        render_bwd<T>(sprites, boxes, bg, grad, buf, buf + box_off, buf + bg_off, K, C, SH, SW, \
                      H, W, mode, temp);                                                         \
    }
RENDER(f32, float)
RENDER(f64, double)

// ---------------------------------------------------------------------------------------------
// Fused relation attention, forward only (src/nn/relation_attention.rs): one block per query
// (q, b). proj (B,K,W0) object part of the first layer (bias included), geo (B,K+Q,2) object
// positions then query positions, params = [W_d (W0,2), then per later layer W (Wo,Win), b (Wo)].
// out[b,q,:] = sum over objects k within the cutoff, in k order, of G(p_k - c_q) * MLP(...).

#define RA_MAXW 256
#define RA_MAXL 4
#define RA_MAXK 1024

template <typename T>
__device__ void rel_attn_fwd(const T *proj, const T *geo, const T *params, T *out, int K, int Q,
                             int nl, int w0, int w1, int w2, int w3, int w4, double inv_std,
                             double norm, double cutoff_sq) {
    __shared__ double buf[2][RA_MAXW];
    __shared__ double acc[RA_MAXW];
    __shared__ double gk[RA_MAXK];
    __shared__ int act[RA_MAXK];
    __shared__ int n_act;
    const int q = blockIdx.x, b = blockIdx.y, tid = threadIdx.x, nt = blockDim.x;
    const int widths[RA_MAXL + 1] = {w0, w1, w2, w3, w4};
    const int wout = widths[nl];
    const T *g = geo + (size_t)b * (K + Q) * 2;
    const double cy = (double)g[(K + q) * 2], cx = (double)g[(K + q) * 2 + 1];
    for (int k = tid; k < K; k += nt) {
        const double dy = ((double)g[k * 2] - cy) * inv_std;
        const double dx = ((double)g[k * 2 + 1] - cx) * inv_std;
        const double z2 = dy * dy + dx * dx;
        gk[k] = z2 <= cutoff_sq ? norm * exp(-0.5 * z2) : -1.0;
    }
    for (int j = tid; j < wout; j += nt) acc[j] = 0.0;
    __syncthreads();
    if (tid == 0) {
        int n = 0;
        for (int k = 0; k < K; k++)
            if (gk[k] >= 0.0) act[n++] = k;
        n_act = n;
    }
    __syncthreads();
    const int n = n_act;
    for (int a = 0; a < n; a++) {
        const int k = act[a];
        const double dy = (double)g[k * 2] - cy, dx = (double)g[k * 2 + 1] - cx;
        const T *pk = proj + ((size_t)b * K + k) * w0;
        for (int j = tid; j < w0; j += nt) {
            const double h = (double)pk[j] + (double)params[2 * j] * dy + (double)params[2 * j + 1] * dx;
            buf[0][j] = nl > 0 ? fmax(h, 0.0) : h;
        }
        __syncthreads();
        const T *p = params + 2 * (size_t)w0;
        int cur = 0;
        for (int l = 1; l <= nl; l++) {
            const int win = widths[l - 1], wo = widths[l];
            for (int j = tid; j < wo; j += nt) {
                const T *row = p + (size_t)j * win;
                double s = (double)p[(size_t)wo * win + j];
                for (int i = 0; i < win; i++) s += (double)row[i] * buf[cur][i];
                buf[1 - cur][j] = l < nl ? fmax(s, 0.0) : s;
            }
            p += (size_t)wo * win + wo;
            __syncthreads();
            cur = 1 - cur;
        }
        const double gv = gk[k];
        for (int j = tid; j < wout; j += nt) acc[j] += gv * buf[cur][j];
        __syncthreads();
    }
    T *o = out + ((size_t)b * Q + q) * wout;
    for (int j = tid; j < wout; j += nt) o[j] = (T)acc[j];
}

#define REL_ATTN(NAME, T)                                                                        \
    extern "C" __global__ void rel_attn_fwd_##NAME(                                              \
        const T *proj, const T *geo, const T *params, T *out, int K, int Q, int nl, int w0,      \
        int w1, int w2, int w3, int w4, double inv_std, double norm, double cutoff_sq) {         \
        rel_attn_fwd<T>(proj, geo, params, out, K, Q, nl, w0, w1, w2, w3, w4, inv_std, norm,     \
                        cutoff_sq);                                                              \
    }
REL_ATTN(f32, float)
REL_ATTN(f64, double)

// Same result, faster form: persistent blocks of RA_WARPS warps loop over queries; the
// parameters sit in shared memory (later layers transposed, so lane j reads W^T[i][j] without
// bank conflicts); each warp runs the MLP of one (query, object) pair at a time (no block-wide
// barrier per layer); the pairs of a query go round-robin to the warps in k order, and the warps'
// partial sums are added in warp order, so the result is deterministic. Arithmetic in T.
// Dynamic shared memory: params (P values) | per warp 2 activation rows + 1 accumulator row of
// width maxw | gk (K values of T) | act (K ints).
#define RA_WARPS 4

template <typename T>
__device__ void rel_attn_fwd_warp(const T *proj, const T *geo, const T *params, T *out, int B,
                                  int K, int Q, int nl, int w0, int w1, int w2, int w3, int w4,
                                  int n_params, int maxw, T inv_std, T norm, T cutoff_sq) {
    extern __shared__ __align__(16) unsigned char ra_smem[];
    T *sp = (T *)ra_smem;
    T *wbuf = sp + n_params;                 // RA_WARPS * 3 * maxw
    T *gk = wbuf + RA_WARPS * 3 * maxw;      // K
    int *act = (int *)(gk + K);              // K
    __shared__ int n_act;
    const int widths[RA_MAXL + 1] = {w0, w1, w2, w3, w4};
    const int wout = widths[nl];
    const int tid = threadIdx.x, nt = blockDim.x, warp = tid >> 5, lane = tid & 31;
    // Parameters: W_d as is; each later W (Wo, Win) stored transposed (Win, Wo); biases as is.
    for (int i = tid; i < 2 * w0; i += nt) sp[i] = params[i];
    {
        int off = 2 * w0;
        for (int l = 1; l <= nl; l++) {
            const int win = widths[l - 1], wo = widths[l];
            for (int e = tid; e < wo * win; e += nt) {
                const int j = e / win, i = e - j * win;
                sp[off + i * wo + j] = params[off + e];
            }
            for (int j = tid; j < wo; j += nt) sp[off + wo * win + j] = params[off + wo * win + j];
            off += wo * win + wo;
        }
    }
    T *buf0 = wbuf + warp * 3 * maxw, *buf1 = buf0 + maxw, *acc = buf1 + maxw;
    for (int bq = blockIdx.x; bq < B * Q; bq += gridDim.x) {
        const int b = bq / Q, q = bq - b * Q;
        const T *g = geo + (size_t)b * (K + Q) * 2;
        const T cy = g[(K + q) * 2], cx = g[(K + q) * 2 + 1];
        __syncthreads();  // previous query's act / gk fully consumed; params loaded
        for (int k = tid; k < K; k += nt) {
            const T dy = (g[k * 2] - cy) * inv_std, dx = (g[k * 2 + 1] - cx) * inv_std;
            const T z2 = dy * dy + dx * dx;
            gk[k] = z2 <= cutoff_sq ? norm * exp(-(T)0.5 * z2) : (T)-1;
        }
        for (int j = lane; j < wout; j += 32) acc[j] = (T)0;
        __syncthreads();
        if (warp == 0) {  // ordered compaction of the objects within the cutoff
            int n = 0;
            for (int base = 0; base < K; base += 32) {
                const int k = base + lane;
                const bool on = k < K && gk[k] >= (T)0;
                const unsigned m = __ballot_sync(0xffffffffu, on);
                if (on) act[n + __popc(m & ((1u << lane) - 1u))] = k;
                n += __popc(m);
            }
            if (lane == 0) n_act = n;
        }
        __syncthreads();
        const int n = n_act;
        for (int a = warp; a < n; a += RA_WARPS) {
            const int k = act[a];
            const T dy = g[k * 2] - cy, dx = g[k * 2 + 1] - cx;
            const T *pk = proj + ((size_t)b * K + k) * w0;
            for (int j = lane; j < w0; j += 32) {
                const T h = pk[j] + sp[2 * j] * dy + sp[2 * j + 1] * dx;
                buf0[j] = nl > 0 ? (h > (T)0 ? h : (T)0) : h;
            }
            __syncwarp();
            T *cur = buf0, *nxt = buf1;
            int off = 2 * w0;
            for (int l = 1; l <= nl; l++) {
                const int win = widths[l - 1], wo = widths[l];
                const T *wt = sp + off, *bias = sp + off + wo * win;
                for (int j = lane; j < wo; j += 32) {
                    T s = bias[j];
                    for (int i = 0; i < win; i++) s += wt[i * wo + j] * cur[i];
                    nxt[j] = l < nl ? (s > (T)0 ? s : (T)0) : s;
                }
                off += wo * win + wo;
                __syncwarp();
                T *t = cur; cur = nxt; nxt = t;
            }
            const T gv = gk[k];
            for (int j = lane; j < wout; j += 32) acc[j] += gv * cur[j];
            __syncwarp();
        }
        __syncthreads();
        T *o = out + (size_t)bq * wout;
        for (int j = tid; j < wout; j += nt) {
            T s = (T)0;
            for (int w = 0; w < RA_WARPS; w++) s += wbuf[w * 3 * maxw + 2 * maxw + j];
            o[j] = s;
        }
    }
}

#define REL_ATTN_WARP(NAME, T)                                                                   \
    extern "C" __global__ void rel_attn_fwd_warp_##NAME(                                         \
        const T *proj, const T *geo, const T *params, T *out, int B, int K, int Q, int nl,       \
        int w0, int w1, int w2, int w3, int w4, int n_params, int maxw, T inv_std, T norm,       \
        T cutoff_sq) {                                                                           \
        rel_attn_fwd_warp<T>(proj, geo, params, out, B, K, Q, nl, w0, w1, w2, w3, w4, n_params,  \
                             maxw, inv_std, norm, cutoff_sq);                                    \
    }
REL_ATTN_WARP(f32, float)
REL_ATTN_WARP(f64, double)

// ---------------------------------------------------------------------------------------------
// Channels-last patches (src/nn/patches.rs): x (B,H,W,C) -> out (B,OH,OW,KH*KW*C), ordered
// (dy, dx, c), with virtual zero padding (PT rows above, PL columns left; anything outside the
// input reads 0) and, when bias != 0, the previous layer's pending relu(x + bias[c]) applied to
// every value read (padding stays 0). One thread per output value (grid-stride over one image
// per blockIdx.y; the launcher checks an image's count fits 32 bits). The _v4 form moves 4
// channels at a time (float4) when C % 4 == 0.

template <typename T>
__device__ __forceinline__ T patch_in(T v, const T *bias, unsigned int c) {
    if (bias == 0) return v;
    v += bias[c];
    return v > (T)0 ? v : (T)0;
}

template <typename T>
__device__ void patches_fwd(const T *x, const T *bias, T *out, int H, int W, int C, int OH,
                            int OW, int KH, int KW, int S, int PT, int PL, int CF) {
    const unsigned int row = (unsigned int)KW * C, K = (unsigned int)KH * row;
    const unsigned int m = (unsigned int)OH * OW * K;  // values per image; blockIdx.y = image
    const T *xb = x + (size_t)blockIdx.y * H * W * C;
    T *ob = out + (size_t)blockIdx.y * m;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += blockDim.x * gridDim.x) {
        const unsigned int pos = i / K, j = i - pos * K;
        const unsigned int oy = pos / OW, ox = pos - oy * OW;
        const unsigned int dy = j / row, rest = j - dy * row;
        const unsigned int dx = rest / C, c = rest - dx * C;
        const int iy = (int)(oy * S + dy) - PT, ix = (int)(ox * S + dx) - PL;
        T v = (T)0;
        if (iy >= 0 && iy < H && ix >= 0 && ix < W) {
            // CF != 0: the input is channels-first (B, C, H, W), read in place.
            const size_t src = CF ? ((size_t)c * H + iy) * W + ix : ((size_t)iy * W + ix) * C + c;
            v = patch_in(xb[src], bias, c);
        }
        ob[i] = v;
    }
}

__device__ void patches_fwd_v4(const float *x, const float *bias, float *out, int H, int W,
                               int C, int OH, int OW, int KH, int KW, int S, int PT, int PL) {
    const unsigned int C4 = C / 4, row4 = (unsigned int)KW * C4, K4 = (unsigned int)KH * row4;
    const unsigned int m4 = (unsigned int)OH * OW * K4;
    const float4 *xb = (const float4 *)(x + (size_t)blockIdx.y * H * W * C);
    float4 *ob = (float4 *)(out + (size_t)blockIdx.y * m4 * 4);
    const float4 *b4 = (const float4 *)bias;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < m4;
         i += blockDim.x * gridDim.x) {
        const unsigned int pos = i / K4, j = i - pos * K4;
        const unsigned int oy = pos / OW, ox = pos - oy * OW;
        const unsigned int dy = j / row4, rest = j - dy * row4;
        const unsigned int dx = rest / C4, c4 = rest - dx * C4;
        const int iy = (int)(oy * S + dy) - PT, ix = (int)(ox * S + dx) - PL;
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (iy >= 0 && iy < H && ix >= 0 && ix < W) {
            v = xb[((size_t)iy * W + ix) * C4 + c4];
            if (bias != 0) {
                const float4 bb = b4[c4];
                v.x = fmaxf(v.x + bb.x, 0.f);
                v.y = fmaxf(v.y + bb.y, 0.f);
                v.z = fmaxf(v.z + bb.z, 0.f);
                v.w = fmaxf(v.w + bb.w, 0.f);
            }
        }
        ob[i] = v;
    }
}

#define PATCHES(NAME, T)                                                                         \
    extern "C" __global__ void patches_fwd_##NAME(const T *x, const T *bias, T *out, int H,     \
                                                  int W, int C, int OH, int OW, int KH, int KW,  \
                                                  int S, int PT, int PL, int CF) {               \
        patches_fwd<T>(x, bias, out, H, W, C, OH, OW, KH, KW, S, PT, PL, CF);                    \
    }
PATCHES(f32, float)
PATCHES(f64, double)

extern "C" __global__ void patches_fwd_v4_f32(const float *x, const float *bias, float *out,
                                              int H, int W, int C, int OH, int OW, int KH,
                                              int KW, int S, int PT, int PL, int CF) {
    patches_fwd_v4(x, bias, out, H, W, C, OH, OW, KH, KW, S, PT, PL);
}

// Gradient of the patches (col2im, src/nn/patches.rs): dx (B,H,W,C), or (B,C,H,W) when CF, from
// g (B,OH,OW,KH*KW*C). One thread per input value sums the patch entries that read it (no
// atomics): the kernel rows dy with (y + PT - dy) divisible by S, likewise the columns. Same
// launch shape as patches_fwd (blockIdx.y = image, grid-stride over the image's values).
template <typename T>
__device__ void patches_bwd(const T *g, T *dx, int H, int W, int C, int OH, int OW, int KH,
                            int KW, int S, int PT, int PL, int CF) {
    const unsigned int K = (unsigned int)KH * KW * C;
    const unsigned int m = (unsigned int)H * W * C;  // values per image
    const T *gb = g + (size_t)blockIdx.y * OH * OW * K;
    T *db = dx + (size_t)blockIdx.y * m;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += blockDim.x * gridDim.x) {
        unsigned int y, x, c;
        if (CF) {
            x = i % W;
            y = (i / W) % H;
            c = i / (W * H);
        } else {
            c = i % C;
            x = (i / C) % W;
            y = i / (C * W);
        }
        const int iy = (int)y + PT, ix = (int)x + PL;
        T acc = (T)0;
        for (int dy = iy % S; dy < KH; dy += S) {
            const int oy = (iy - dy) / S;  // exact; falls as dy grows
            if (oy < 0) break;
            if (oy >= OH) continue;
            for (int dxk = ix % S; dxk < KW; dxk += S) {
                const int ox = (ix - dxk) / S;
                if (ox < 0) break;
                if (ox >= OW) continue;
                acc += gb[((size_t)oy * OW + ox) * K + ((unsigned int)dy * KW + dxk) * C + c];
            }
        }
        db[i] = acc;
    }
}

#define PATCHES_BWD(NAME, T)                                                                     \
    extern "C" __global__ void patches_bwd_##NAME(const T *g, T *dx, int H, int W, int C,       \
                                                  int OH, int OW, int KH, int KW, int S, int PT, \
                                                  int PL, int CF) {                              \
        patches_bwd<T>(g, dx, H, W, C, OH, OW, KH, KW, S, PT, PL, CF);                           \
    }
PATCHES_BWD(f32, float)
PATCHES_BWD(f64, double)

// Half-precision patches (the backbone's f16 inference path): the same patches, values computed
// in float and stored as IEEE f16 (`unsigned short` bits; conversions in PTX, no fp16 header).
// The input is float (channels-first or -last) or f16 channels-last; the pending bias is float.

__device__ __forceinline__ unsigned short f2h(float f) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
__device__ __forceinline__ float h2f(unsigned short h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ float load_f(const float *p, size_t i) { return p[i]; }
__device__ __forceinline__ float load_f(const unsigned short *p, size_t i) { return h2f(p[i]); }

template <typename Tin>
__device__ void patches_fwd_half(const Tin *x, const float *bias, unsigned short *out, int H,
                                 int W, int C, int OH, int OW, int KH, int KW, int S, int PT,
                                 int PL, int CF) {
    const unsigned int row = (unsigned int)KW * C, K = (unsigned int)KH * row;
    const unsigned int m = (unsigned int)OH * OW * K;
    const Tin *xb = x + (size_t)blockIdx.y * H * W * C;
    unsigned short *ob = out + (size_t)blockIdx.y * m;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < m;
         i += blockDim.x * gridDim.x) {
        const unsigned int pos = i / K, j = i - pos * K;
        const unsigned int oy = pos / OW, ox = pos - oy * OW;
        const unsigned int dy = j / row, rest = j - dy * row;
        const unsigned int dx = rest / C, c = rest - dx * C;
        const int iy = (int)(oy * S + dy) - PT, ix = (int)(ox * S + dx) - PL;
        float v = 0.f;
        if (iy >= 0 && iy < H && ix >= 0 && ix < W) {
            const size_t src = CF ? ((size_t)c * H + iy) * W + ix : ((size_t)iy * W + ix) * C + c;
            v = load_f(xb, src);
            if (bias != 0) v = fmaxf(v + bias[c], 0.f);
        }
        ob[i] = f2h(v);
    }
}

// relu(v + b) on the two f16 values packed in `w`.
__device__ __forceinline__ unsigned int bias_relu_h2(unsigned int w, float b0, float b1) {
    const float lo = fmaxf(h2f((unsigned short)(w & 0xffffu)) + b0, 0.f);
    const float hi = fmaxf(h2f((unsigned short)(w >> 16)) + b1, 0.f);
    return (unsigned int)f2h(lo) | ((unsigned int)f2h(hi) << 16);
}

// f16 channels-last input, 8 channels (16 bytes) per thread; C % 8 == 0, 16-byte aligned.
__device__ void patches_fwd_h_v8(const unsigned short *x, const float *bias, unsigned short *out,
                                 int H, int W, int C, int OH, int OW, int KH, int KW, int S,
                                 int PT, int PL) {
    const unsigned int C8 = C / 8, row8 = (unsigned int)KW * C8, K8 = (unsigned int)KH * row8;
    const unsigned int m8 = (unsigned int)OH * OW * K8;
    const uint4 *xb = (const uint4 *)(x + (size_t)blockIdx.y * H * W * C);
    uint4 *ob = (uint4 *)(out + (size_t)blockIdx.y * m8 * 8);
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < m8;
         i += blockDim.x * gridDim.x) {
        const unsigned int pos = i / K8, j = i - pos * K8;
        const unsigned int oy = pos / OW, ox = pos - oy * OW;
        const unsigned int dy = j / row8, rest = j - dy * row8;
        const unsigned int dx = rest / C8, c8 = rest - dx * C8;
        const int iy = (int)(oy * S + dy) - PT, ix = (int)(ox * S + dx) - PL;
        uint4 v = make_uint4(0u, 0u, 0u, 0u);
        if (iy >= 0 && iy < H && ix >= 0 && ix < W) {
            v = xb[((size_t)iy * W + ix) * C8 + c8];
            if (bias != 0) {
                const float *b = bias + c8 * 8;
                v.x = bias_relu_h2(v.x, b[0], b[1]);
                v.y = bias_relu_h2(v.y, b[2], b[3]);
                v.z = bias_relu_h2(v.z, b[4], b[5]);
                v.w = bias_relu_h2(v.w, b[6], b[7]);
            }
        }
        ob[i] = v;
    }
}

extern "C" __global__ void patches_fwd_f32_to_f16(const float *x, const float *bias,
                                                  unsigned short *out, int H, int W, int C,
                                                  int OH, int OW, int KH, int KW, int S, int PT,
                                                  int PL, int CF) {
    patches_fwd_half<float>(x, bias, out, H, W, C, OH, OW, KH, KW, S, PT, PL, CF);
}

extern "C" __global__ void patches_fwd_f16_to_f16(const unsigned short *x, const float *bias,
                                                  unsigned short *out, int H, int W, int C,
                                                  int OH, int OW, int KH, int KW, int S, int PT,
                                                  int PL, int CF) {
    patches_fwd_half<unsigned short>(x, bias, out, H, W, C, OH, OW, KH, KW, S, PT, PL, CF);
}

extern "C" __global__ void patches_fwd_v8_f16(const unsigned short *x, const float *bias,
                                              unsigned short *out, int H, int W, int C, int OH,
                                              int OW, int KH, int KW, int S, int PT, int PL,
                                              int CF) {
    patches_fwd_h_v8(x, bias, out, H, W, C, OH, OW, KH, KW, S, PT, PL);
}

// ---------------------------------------------------------------------------------------------
// Fused Adam (src/nn/fused_adam.rs), TF1's epsilon-hat form, arithmetic in double.

__device__ __forceinline__ unsigned long long mix64(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Counter-based random streams (src/rng.rs): element `index` of stream `key`.
__device__ __forceinline__ unsigned long long counter_bits(unsigned long long key,
                                                           unsigned long long index,
                                                           unsigned long long attempt) {
    const unsigned long long golden = 0x9e3779b97f4a7c15ULL;
    return mix64(mix64(key ^ mix64(index * golden)) + attempt * golden);
}

__device__ __forceinline__ double box_muller(unsigned long long bits) {
    const double u1 = ((double)(bits >> 40) + 1.0) * (1.0 / 16777216.0);
    const double u2 = (double)(bits & 0xffffffULL) * (1.0 / 16777216.0);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

__device__ double counter_truncated_normal(unsigned long long key, unsigned long long index) {
    for (unsigned long long attempt = 0; attempt < 32; ++attempt) {
        const double z = box_muller(counter_bits(key, index, attempt));
        if (fabs(z) <= 2.0) return z;
    }
    return 0.0;
}

// Noise tensors (src/nn/noise.rs): kind 0 = N(0, 1), 1 = U[0, 1).
template <typename T>
__device__ void counter_noise(T *out, unsigned long long n, unsigned long long key, int kind) {
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)blockDim.x * gridDim.x) {
        const unsigned long long bits = counter_bits(key, i, 0);
        out[i] = (T)(kind == 0 ? box_muller(bits) : (double)(bits >> 40) * (1.0 / 16777216.0));
    }
}

#define NOISE(NAME, T)                                                                           \
    extern "C" __global__ void counter_noise_##NAME(T *out, unsigned long long n,                 \
                                                    unsigned long long key, int kind) {          \
        counter_noise<T>(out, n, key, kind);                                                     \
    }
NOISE(f32, float)
NOISE(f64, double)

template <typename T>
__device__ void adam_moments(T *mv, const T *g, unsigned long long n, double scale, double sigma,
                             double beta1, double beta2, unsigned long long key) {
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)blockDim.x * gridDim.x) {
        double gi = scale * (double)g[i];
        if (sigma != 0.0) gi = gi + sigma * counter_truncated_normal(key, i);
        mv[i] = (T)(beta1 * (double)mv[i] + (1.0 - beta1) * gi);
        mv[n + i] = (T)(beta2 * (double)mv[n + i] + (1.0 - beta2) * gi * gi);
    }
}

template <typename T>
__device__ void adam_apply(T *theta, const T *mv, unsigned long long n, double lr_t, double eps) {
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)blockDim.x * gridDim.x) {
        const double upd = (double)mv[i] / (sqrt((double)mv[n + i]) + eps);
        theta[i] = (T)((double)theta[i] - lr_t * upd);
    }
}

#define ADAM(NAME, T)                                                                            \
    extern "C" __global__ void adam_moments_##NAME(T *mv, const T *g, unsigned long long n,       \
                                                   double scale, double sigma, double beta1,      \
                                                   double beta2, unsigned long long key) {        \
        adam_moments<T>(mv, g, n, scale, sigma, beta1, beta2, key);                              \
    }                                                                                            \
    extern "C" __global__ void adam_apply_##NAME(T *theta, const T *mv, unsigned long long n,    \
                                                 double lr_t, double eps) {                      \
        adam_apply<T>(theta, mv, n, lr_t, eps);                                                  \
    }
ADAM(f32, float)
ADAM(f64, double)

// ---------------------------------------------------------------------------------------------
// Fused epilogues (src/nn/epilogue.rs).

// y = act(x + b[col]) over a row-major (n / c, c) matrix; relu != 0 clamps at zero.
template <typename T>
__device__ void bias_act(const T *x, const T *b, T *y, unsigned int n, unsigned int c, int relu) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const T v = x[i] + b[i % c];
        y[i] = (relu && v < (T)0) ? (T)0 : v;
    }
}

// y[m, ch, q] = x[m, ch, q] * sigmoid(logit[m * rs + q] + shift) over (N, C, P); rs = row
// stride of the logit (P when contiguous).
// Output rows of ROW >= C*P values (n = N*ROW): y[m, j] for j < C*P as above, 0 after.
template <typename T>
__device__ void gate_channels(const T *x, const T *logit, T *y, unsigned int n, unsigned int c,
                              unsigned int p, unsigned int rs, unsigned int row, T shift) {
    const unsigned int cp = c * p;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const unsigned int m = i / row, j = i - m * row;
        if (j >= cp) {
            y[i] = (T)0;
            continue;
        }
        const unsigned int q = j % p;
        const T l = logit[(size_t)m * rs + q] + shift;
        y[i] = x[(size_t)m * cp + j] / ((T)1 + exp(-l));
    }
}

// out = g where the mask passes (kind 0: r > 0, ReLU backward; kind 1: lo <= r <= hi, clamp
// backward), 0 elsewhere.
template <typename T>
__device__ void masked_grad(const T *g, const T *r, T *out, unsigned int n, int kind, T lo,
                            T hi) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const T v = r[i];
        const bool pass = kind == 0 ? v > (T)0 : (v >= lo && v <= hi);
        out[i] = pass ? g[i] : (T)0;
    }
}

template <typename T>
__device__ void clamp_fwd(const T *x, T *y, unsigned int n, T lo, T hi) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const T v = x[i];
        y[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}

#define EPILOGUE(NAME, T)                                                                        \
    extern "C" __global__ void masked_grad_##NAME(const T *g, const T *r, T *out,               \
                                                  unsigned int n, int kind, T lo, T hi) {        \
        masked_grad<T>(g, r, out, n, kind, lo, hi);                                              \
    }                                                                                            \
    extern "C" __global__ void clamp_##NAME(const T *x, T *y, unsigned int n, T lo, T hi) {      \
        clamp_fwd<T>(x, y, n, lo, hi);                                                           \
    }                                                                                            \
    extern "C" __global__ void bias_act_##NAME(const T *x, const T *b, T *y, unsigned int n,      \
                                               unsigned int c, int relu) {                        \
        bias_act<T>(x, b, y, n, c, relu);                                                        \
    }                                                                                            \
    extern "C" __global__ void gate_channels_##NAME(const T *x, const T *logit, T *y,            \
                                                    unsigned int n, unsigned int c,              \
                                                    unsigned int p, unsigned int rs,             \
                                                    unsigned int row, T shift) {                 \
        gate_channels<T>(x, logit, y, n, c, p, rs, row, shift);                                  \
    }
EPILOGUE(f32, float)
EPILOGUE(f64, double)

// ---------------------------------------------------------------------------------------------
// Presence-weighted Normal KL against a fixed prior N(pm, ps) (nn::weighted_kl), one thread per
// row of D values (rows = B*N, all inputs contiguous):
//   forward:  out[r] = w[r] * sum_d KL(N(m[r,d], s[r,d]) || N(pm, ps))
//   backward: out[r, :] = [gw[r]*(m - pm)/ps^2 | gw[r]*(s/ps^2 - 1/s) | sum_d KL]  (2D + 1 values)
template <typename T>
__device__ T row_kl(const T *m, const T *s, unsigned int d, T pm, T ps) {
    const T scale = (T)1 / ((T)2 * ps * ps), c = log(ps) - (T)0.5;
    T acc = (T)0;
    for (unsigned int j = 0; j < d; ++j) {
        const T dm = m[j] - pm, sj = s[j];
        acc += (dm * dm + sj * sj) * scale + c - log(sj);
    }
    return acc;
}

template <typename T>
__device__ void weighted_kl(const T *m, const T *s, const T *w, T *out, unsigned int rows,
                            unsigned int d, T pm, T ps, int backward) {
    for (unsigned int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
        const T *mr = m + (size_t)r * d, *sr = s + (size_t)r * d;
        const T kl = row_kl<T>(mr, sr, d, pm, ps);
        if (!backward) {
            out[r] = w[r] * kl;
            continue;
        }
        const T gw = w[r], inv_var = (T)1 / (ps * ps);
        T *o = out + (size_t)r * (2 * d + 1);
        for (unsigned int j = 0; j < d; ++j) {
            o[j] = gw * (mr[j] - pm) * inv_var;
            o[d + j] = gw * (sr[j] * inv_var - (T)1 / sr[j]);
        }
        o[2 * d] = kl;
    }
}

#define WEIGHTED_KL(NAME, T)                                                                     \
    extern "C" __global__ void weighted_kl_##NAME(const T *m, const T *s, const T *w, T *out,    \
                                                  unsigned int rows, unsigned int d, T pm, T ps, \
                                                  int backward) {                                \
        weighted_kl<T>(m, s, w, out, rows, d, pm, ps, backward);                                 \
    }
WEIGHTED_KL(f32, float)
WEIGHTED_KL(f64, double)

// ---------------------------------------------------------------------------------------------
// Elementwise Bernoulli terms with the reference's safe log, sl(x) = log(x + 1e-9), -100 where
// that is not finite (nn::bernoulli). kind 0: the likelihood's NLL f(a = x_hat; b = x) =
// -[b sl(a) + (1-b) sl(1-a)]; kind 1: KL(Bern(a) || Bern(b)) = a (sl(a) - sl(b)) + (1-a)
// (sl(1-a) - sl(1-b)). backward != 0 writes df/da instead (b carries no gradient), where
// sl'(x) = 1/(x + 1e-9), 0 where sl(x) was not finite. One thread per element.
template <typename T>
__device__ __forceinline__ T safe_log_val(T x, T *d) {
    const T v = x + (T)1e-9;
    const T y = log(v);
    const bool ok = isfinite(y);
    *d = ok ? (T)1 / v : (T)0;
    return ok ? y : (T)-100;
}

template <typename T>
__device__ void bernoulli_term(const T *a, const T *b, T *out, unsigned int n, int kind,
                               int backward) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        const T x = a[i], y = b[i];
        T da, dna, db, dnb;
        const T la = safe_log_val(x, &da), lna = safe_log_val((T)1 - x, &dna);
        T r;
        if (kind == 0) {
            r = backward ? -(y * da - ((T)1 - y) * dna) : -(y * la + ((T)1 - y) * lna);
        } else {
            const T lb = safe_log_val(y, &db), lnb = safe_log_val((T)1 - y, &dnb);
            r = backward ? la - lb + x * da - lna + lnb - ((T)1 - x) * dna
                         : x * (la - lb) + ((T)1 - x) * (lna - lnb);
        }
        out[i] = r;
    }
}

#define BERNOULLI(NAME, T)                                                                       \
    extern "C" __global__ void bernoulli_##NAME(const T *a, const T *b, T *out, unsigned int n,  \
                                                int kind, int backward) {                        \
        bernoulli_term<T>(a, b, out, n, kind, backward);                                         \
    }
BERNOULLI(f32, float)
BERNOULLI(f64, double)

// SPAIR count prior's rho (model::count_prior, reference §4.4), one warp per stream: o (B, N)
// presences in visiting order (indicator o > 0.5), rho (B, N). The count distribution pi (N + 1
// values, f64 in dynamic shared memory; lane l owns n = l, l + 32, ...) starts at p^n, p =
// sigmoid(log_odds); per object i: rho_i = sum_n pi(n) a_i(n), a_i(n) = clip((n - c)/(N - i),
// 0, 1), then pi *= a_i (indicator on) or 1 - a_i (off), renormalised (floor 1e-6), c += b_i.
__device__ __forceinline__ double warp_all_sum(double v) {
    return __shfl_sync(0xffffffffu, warp_sum(v), 0);
}

template <typename T>
__device__ void count_rho(const T *o, T *rho, int N, double log_odds) {
    extern __shared__ double pi[];
    const int lane = threadIdx.x;
    const T *ob = o + (size_t)blockIdx.x * N;
    T *rb = rho + (size_t)blockIdx.x * N;
    const double lp = log(1.0 / (1.0 + exp(-log_odds)));
    const double mx = fmax(0.0, N * lp);  // the largest n * lp (lp <= 0: n = 0)
    double s = 0.0;
    for (int n = lane; n <= N; n += 32) {
        pi[n] = exp(n * lp - mx);
        s += pi[n];
    }
    s = warp_all_sum(s);
    for (int n = lane; n <= N; n += 32) pi[n] /= s;
    double c = 0.0;
    for (int i = 0; i < N; ++i) {
        const double rem = (double)(N - i);
        double r = 0.0;
        for (int n = lane; n <= N; n += 32) r += pi[n] * fmin(fmax((n - c) / rem, 0.0), 1.0);
        r = warp_sum(r);
        if (lane == 0) rb[i] = (T)r;
        const bool on = ob[i] > (T)0.5;
        double norm = 0.0;
        for (int n = lane; n <= N; n += 32) {
            const double a = on ? (n - c) / rem : (rem - n + c) / rem;
            pi[n] *= fmin(fmax(a, 0.0), 1.0);
            norm += pi[n];
        }
        norm = fmax(warp_all_sum(norm), 1e-6);
        for (int n = lane; n <= N; n += 32) pi[n] /= norm;
        c = rint(c + (on ? 1.0 : 0.0));
    }
}

#define COUNT_RHO(NAME, T)                                                                       \
    extern "C" __global__ void count_rho_##NAME(const T *o, T *rho, int N, double log_odds) {   \
        count_rho<T>(o, rho, N, log_odds);                                                       \
    }
COUNT_RHO(f32, float)
COUNT_RHO(f64, double)

// ---------------------------------------------------------------------------------------------
// The propagation's gated `what` update (nn::gated_update), one thread per (object r, unit j) of
// R objects of A units, all inputs contiguous: inp (R, 2A) = [mu_in | l_in], tmp (R, 5A) =
// [mu_tmp | l_tmp | f~ | i~ | tau~], prev (R, A); gate(x) = 0.9999 sigmoid(x + 1),
// s(l) = 2 sigmoid(clamp(l, -10, 10)).
//   forward:  out (2, R, A) = [mu = f prev + (1-i) mu_in + (1-tau) mu_tmp ;
//                              sd = (1-i) s(l_in) + (1-tau) s(l_tmp)]
//   backward: from g (2, R, A), out = [g_inp (R, 2A) | g_tmp (R, 5A) | g_prev (R, A)]
template <typename T>
__device__ void gw_gate(T x, T &g, T &slope) {
    const T s = (T)1 / ((T)1 + exp(-(x + (T)1)));
    g = (T)0.9999 * s;
    slope = (T)0.9999 * s * ((T)1 - s);
}

template <typename T>
__device__ void gw_std(T l, T &s, T &slope) {
    const T c = l < (T)-10 ? (T)-10 : (l > (T)10 ? (T)10 : l);
    const T sg = (T)1 / ((T)1 + exp(-c));
    s = (T)2 * sg;
    slope = (l >= (T)-10 && l <= (T)10) ? (T)2 * sg * ((T)1 - sg) : (T)0;
}

template <typename T>
__device__ void gated_what(const T *inp, const T *tmp, const T *prev, const T *g, T *out,
                           unsigned int r_n, unsigned int a) {
    const size_t n = (size_t)r_n * a;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < n;
         e += (size_t)blockDim.x * gridDim.x) {
        const size_t r = e / a, j = e - r * a;
        const T *ir = inp + r * 2 * a, *tr = tmp + r * 5 * a;
        T f, df, i, di, tau, dtau, s_in, ds_in, s_tmp, ds_tmp;
        gw_gate(tr[2 * a + j], f, df);
        gw_gate(tr[3 * a + j], i, di);
        gw_gate(tr[4 * a + j], tau, dtau);
        gw_std(ir[a + j], s_in, ds_in);
        gw_std(tr[a + j], s_tmp, ds_tmp);
        const T mu_in = ir[j], mu_tmp = tr[j], pv = prev[e];
        if (g == nullptr) {
            out[e] = f * pv + ((T)1 - i) * mu_in + ((T)1 - tau) * mu_tmp;
            out[n + e] = ((T)1 - i) * s_in + ((T)1 - tau) * s_tmp;
            continue;
        }
        const T gm = g[e], gs = g[n + e];
        T *gi = out + r * 2 * a, *gt = out + 2 * n + r * 5 * a;
        gi[j] = ((T)1 - i) * gm;
        gi[a + j] = ((T)1 - i) * ds_in * gs;
        gt[j] = ((T)1 - tau) * gm;
        gt[a + j] = ((T)1 - tau) * ds_tmp * gs;
        gt[2 * a + j] = pv * gm * df;
        gt[3 * a + j] = -(mu_in * gm + s_in * gs) * di;
        gt[4 * a + j] = -(mu_tmp * gm + s_tmp * gs) * dtau;
        out[7 * n + e] = f * gm;
    }
}

#define GATED_WHAT(NAME, T)                                                                      \
    extern "C" __global__ void gated_what_fwd_##NAME(const T *inp, const T *tmp, const T *prev,  \
                                                     T *out, unsigned int r, unsigned int a) {   \
        gated_what<T>(inp, tmp, prev, nullptr, out, r, a);                                       \
    }                                                                                            \
    extern "C" __global__ void gated_what_bwd_##NAME(const T *inp, const T *tmp, const T *prev,  \
                                                     const T *g, T *out, unsigned int r,         \
                                                     unsigned int a) {                           \
        gated_what<T>(inp, tmp, prev, g, out, r, a);                                             \
    }
GATED_WHAT(f32, float)
GATED_WHAT(f64, double)
