// Choosing the SIMD target at run time (kernels.h): Highway's dispatcher picks the best
// target the CPU supports for every HWY_DYNAMIC_DISPATCH call, the kernels', the bench's
// loops' and the Highway library's own (vqsort), through one shared choice. Disabling the
// targets above a chosen one makes all of them run that target's code.
#include <hwy/targets.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernels.h"

namespace gpsimd::kernels {
namespace {

struct TargetName {
  const char* name;
  int64_t bit;
};
// The targets compiled into the kernels (common/simd_targets.h: no SSSE3 or SSE4), best
// first.
constexpr TargetName kTargets[] = {{"AVX3", HWY_AVX3}, {"AVX2", HWY_AVX2}, {"SCALAR", HWY_SCALAR}};

// The targets disabled by force_simd_target (0: none).
int64_t g_disabled = 0;

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

}  // namespace

std::vector<std::string> simd_targets_supported() {
  // The CPU's own choice, whatever was forced before.
  if (g_disabled != 0) hwy::DisableTargets(0);
  const int64_t supported = hwy::SupportedTargets() | HWY_SCALAR;
  if (g_disabled != 0) hwy::DisableTargets(g_disabled);
  std::vector<std::string> out;
  for (const TargetName& t : kTargets)
    if (supported & t.bit) out.push_back(t.name);
  return out;
}

std::string force_simd_target(std::string_view name) {
  if (name.empty()) {
    g_disabled = 0;
    hwy::DisableTargets(0);
    return {};
  }
  const std::string want = upper(name);
  const auto* t = std::find_if(std::begin(kTargets), std::end(kTargets),
                               [&](const TargetName& x) { return want == x.name; });
  if (t == std::end(kTargets))
    return "unknown SIMD target \"" + std::string(name) + "\" (one of avx3, avx2, scalar)";
  const std::vector<std::string> ok = simd_targets_supported();
  if (std::find(ok.begin(), ok.end(), t->name) == ok.end()) {
    std::string list;
    for (const std::string& s : ok) list += (list.empty() ? "" : ", ") + s;
    return "this CPU does not support the SIMD target " + std::string(t->name) + " (it supports " +
           list + ")";
  }
  // Every target better than the chosen one (lower bits are better targets).
  g_disabled = t->bit - 1;
  hwy::DisableTargets(g_disabled);
  return {};
}

}  // namespace gpsimd::kernels
