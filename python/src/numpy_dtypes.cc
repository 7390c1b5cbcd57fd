// NumPy dtypes for the formats NumPy lacks: bfloat16 (BF16), float8_e4m3 (FP8_E4) and
// float8_e5m2 (FP8_E5), registered as NumPy user dtypes so that NKI code can write
// x.astype(nl.bfloat16), np.dtype("float8_e4m3") and arrays of them.
//
// An element is the format's bit pattern (2 bytes or 1); every conversion goes through
// FP32 by gpsimd's own conversions (SPEC §5.1: round to nearest even, overflow to ±inf,
// NaN stays NaN): from another NumPy type, the value is first made a float32 (NumPy's
// C cast: float64 rounds to nearest even there), then narrowed. To NumPy types the FP32
// value is exact; it is then cast as NumPy casts a float32. The dtypes cast safely to
// float32 and float64, so NumPy's ufuncs (comparisons, arithmetic, max, ...) run on
// them in float32 and give float32 results.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL gpsimd_numpy_dtypes_api
#define PY_UFUNC_UNIQUE_SYMBOL gpsimd_numpy_dtypes_ufunc_api
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "bindings.h"
#include "gpsimd/format.h"
#include "gpsimd/types.h"

namespace gpsimd::python {
namespace {

namespace py = pybind11;

struct Format {
  const char* name;      // NKI's (and ml_dtypes') name, also the key in np.sctypeDict
  const char* qualname;  // the scalar type's name
  Dtype dtype;
  int size;
  char type_char;
};

constexpr Format kFormats[] = {
    {"bfloat16", "gpsimd._core.bfloat16", Dtype::BF16, 2, 'E'},
    {"float8_e4m3", "gpsimd._core.float8_e4m3", Dtype::FP8_E4, 1, '4'},
    {"float8_e5m2", "gpsimd._core.float8_e5m2", Dtype::FP8_E5, 1, '5'},
};

float to_float(int k, uint16_t bits) {
  const uint32_t b = widen_to_fp32(kFormats[k].dtype, bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

uint16_t from_float(int k, float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return static_cast<uint16_t>(narrow_from_fp32(kFormats[k].dtype, b));
}

uint16_t load_bits(int k, const void* p) {
  if (kFormats[k].size == 1) return *static_cast<const uint8_t*>(p);
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

void store_bits(int k, void* p, uint16_t v) {
  if (kFormats[k].size == 1)
    *static_cast<uint8_t*>(p) = static_cast<uint8_t>(v);
  else
    std::memcpy(p, &v, 2);
}

// The scalar: a NumPy generic holding the bit pattern.
struct ScalarObject {
  PyObject_HEAD uint16_t bits;
};

PyTypeObject scalar_types[3];
PyArray_ArrFuncs arr_funcs[3];
PyArray_Descr descrs[3];
int type_nums[3] = {-1, -1, -1};

template <int K>
PyObject* make_scalar(uint16_t bits) {
  auto* o = reinterpret_cast<ScalarObject*>(scalar_types[K].tp_alloc(&scalar_types[K], 0));
  if (o != nullptr) o->bits = bits;
  return reinterpret_cast<PyObject*>(o);
}

// The bits of a Python object as format K: a scalar of K as it is, anything else through
// float() (a float64) then float32.
template <int K>
bool bits_of(PyObject* obj, uint16_t* out) {
  if (PyObject_TypeCheck(obj, &scalar_types[K])) {
    *out = reinterpret_cast<ScalarObject*>(obj)->bits;
    return true;
  }
  for (int j = 0; j < 3; ++j)
    if (PyObject_TypeCheck(obj, &scalar_types[j])) {
      *out = from_float(K, to_float(j, reinterpret_cast<ScalarObject*>(obj)->bits));
      return true;
    }
  PyObject* f = PyNumber_Float(obj);
  if (f == nullptr) return false;
  const double d = PyFloat_AsDouble(f);
  Py_DECREF(f);
  *out = from_float(K, static_cast<float>(d));
  return true;
}

template <int K>
PyObject* scalar_new(PyTypeObject*, PyObject* args, PyObject* kwds) {
  PyObject* x = nullptr;
  if (kwds != nullptr && PyDict_Size(kwds) != 0) {
    PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", kFormats[K].name);
    return nullptr;
  }
  if (!PyArg_ParseTuple(args, "|O", &x)) return nullptr;
  if (x == nullptr) return make_scalar<K>(0);
  if (PyArray_Check(x))
    return PyArray_CastToType(reinterpret_cast<PyArrayObject*>(x),
                              PyArray_DescrFromType(type_nums[K]), 0);
  uint16_t bits;
  if (!bits_of<K>(x, &bits)) return nullptr;
  return make_scalar<K>(bits);
}

template <int K>
PyObject* scalar_float(PyObject* self) {
  return PyFloat_FromDouble(to_float(K, reinterpret_cast<ScalarObject*>(self)->bits));
}

// Returns fn(float(self)): what the scalar's int() and repr() are.
template <int K, PyObject* (*Fn)(PyObject*)>
PyObject* via_float(PyObject* self) {
  PyObject* f = scalar_float<K>(self);
  if (f == nullptr) return nullptr;
  PyObject* r = Fn(f);
  Py_DECREF(f);
  return r;
}

template <int K>
int scalar_bool(PyObject* self) {
  return to_float(K, reinterpret_cast<ScalarObject*>(self)->bits) != 0.0f;
}

template <int K>
Py_hash_t scalar_hash(PyObject* self) {
  PyObject* f = scalar_float<K>(self);
  if (f == nullptr) return -1;
  const Py_hash_t h = PyObject_Hash(f);
  Py_DECREF(f);
  return h;
}

template <int K>
PyObject* scalar_richcompare(PyObject* a, PyObject* b, int op) {
  // Compare as float64 values (exact for these formats); other operands NumPy's way.
  PyObject* fa = PyObject_TypeCheck(a, &scalar_types[K]) ? scalar_float<K>(a) : nullptr;
  PyObject* fb = PyObject_TypeCheck(b, &scalar_types[K]) ? scalar_float<K>(b) : nullptr;
  PyObject* r = PyObject_RichCompare(fa ? fa : a, fb ? fb : b, op);
  Py_XDECREF(fa);
  Py_XDECREF(fb);
  return r;
}

PyNumberMethods scalar_number[3];

// ---- the array functions ---------------------------------------------------------------

template <int K>
PyObject* getitem(void* data, void*) {
  return make_scalar<K>(load_bits(K, data));
}

template <int K>
int setitem(PyObject* item, void* data, void*) {
  uint16_t bits;
  if (!bits_of<K>(item, &bits)) return -1;
  store_bits(K, data, bits);
  return 0;
}

template <int K>
void copyswapn(void* dst, npy_intp dstride, void* src, npy_intp sstride, npy_intp n, int swap,
               void*) {
  auto* d = static_cast<char*>(dst);
  auto* s = static_cast<char*>(src);
  const int size = kFormats[K].size;
  if (src != nullptr) {
    if (dstride == size && sstride == size)
      std::memmove(d, s, static_cast<size_t>(n) * size);
    else
      for (npy_intp i = 0; i < n; ++i) std::memmove(d + i * dstride, s + i * sstride, size);
  }
  if (swap && size == 2)
    for (npy_intp i = 0; i < n; ++i) std::swap(d[i * dstride], d[i * dstride + 1]);
}

template <int K>
void copyswap(void* dst, void* src, int swap, void* arr) {
  copyswapn<K>(dst, 0, src, 0, 1, swap, arr);
}

template <int K>
npy_bool nonzero(void* data, void*) {
  return to_float(K, load_bits(K, data)) != 0.0f;
}

template <int K>
int compare(const void* a, const void* b, void*) {
  // NumPy's order for floats: NaNs last.
  const float x = to_float(K, load_bits(K, a)), y = to_float(K, load_bits(K, b));
  if (x < y) return -1;
  if (y < x) return 1;
  const bool nx = std::isnan(x), ny = std::isnan(y);
  return nx == ny ? 0 : (nx ? 1 : -1);
}

template <int K, bool kMax>
int arg_extreme(void* data, npy_intp n, npy_intp* index, void*) {
  // NumPy's rule: the first NaN wins, else the first extreme value.
  const auto* p = static_cast<const char*>(data);
  const int size = kFormats[K].size;
  *index = 0;
  if (n <= 0) return 0;
  float best = to_float(K, load_bits(K, p));
  if (std::isnan(best)) return 0;
  for (npy_intp i = 1; i < n; ++i) {
    const float v = to_float(K, load_bits(K, p + i * size));
    if (std::isnan(v) || (kMax ? v > best : v < best)) {
      best = v;
      *index = i;
      if (std::isnan(v)) break;
    }
  }
  return 0;
}

template <int K>
int fill(void* buffer, npy_intp length, void*) {
  // np.arange: start and start + delta are the first two elements.
  auto* p = static_cast<char*>(buffer);
  const int size = kFormats[K].size;
  const float start = to_float(K, load_bits(K, p));
  const float delta = to_float(K, load_bits(K, p + size)) - start;
  for (npy_intp i = 2; i < length; ++i)
    store_bits(K, p + i * size, from_float(K, start + static_cast<float>(i) * delta));
  return 0;
}

template <int K>
void dot(void* a, npy_intp sa, void* b, npy_intp sb, void* out, npy_intp n, void*) {
  // Products and their sum in FP32, the sum narrowed once.
  float acc = 0.0f;
  for (npy_intp i = 0; i < n; ++i)
    acc += to_float(K, load_bits(K, static_cast<char*>(a) + i * sa)) *
           to_float(K, load_bits(K, static_cast<char*>(b) + i * sb));
  store_bits(K, out, from_float(K, acc));
}

// ---- casts -----------------------------------------------------------------------------

template <typename T>
float as_float(T v) {
  return static_cast<float>(v);
}
template <>
float as_float<npy_bool>(npy_bool v) {
  return v ? 1.0f : 0.0f;
}

template <typename T>
T from_f(float f) {
  return static_cast<T>(f);
}
template <>
npy_bool from_f<npy_bool>(float f) {
  return f != 0.0f;
}

// A float outside an integer type's range is undefined in C++: integers get NumPy's
// usual result through double, saturating is not NumPy's promise either, so the value is
// clamped first (NaN is 0).
template <typename T>
T to_integer(float f) {
  if (std::isnan(f)) return 0;
  const double d = f;
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  return static_cast<T>(d < lo ? lo : (d > hi ? hi : d));
}

template <int K, typename T>
void cast_from(void* from, void* to, npy_intp n, void*, void*) {
  const auto* s = static_cast<const T*>(from);
  auto* d = static_cast<char*>(to);
  for (npy_intp i = 0; i < n; ++i)
    store_bits(K, d + i * kFormats[K].size, from_float(K, as_float(s[i])));
}

template <int K, typename T>
void cast_to(void* from, void* to, npy_intp n, void*, void*) {
  const auto* s = static_cast<const char*>(from);
  auto* d = static_cast<T*>(to);
  for (npy_intp i = 0; i < n; ++i) {
    const float f = to_float(K, load_bits(K, s + i * kFormats[K].size));
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, npy_bool>)
      d[i] = to_integer<T>(f);
    else
      d[i] = from_f<T>(f);
  }
}

// FP16 through gpsimd's conversion (NumPy's npy_half is its bit pattern).
template <int K>
void cast_from_half(void* from, void* to, npy_intp n, void*, void*) {
  const auto* s = static_cast<const uint16_t*>(from);
  auto* d = static_cast<char*>(to);
  for (npy_intp i = 0; i < n; ++i) {
    const uint32_t b = widen_to_fp32(Dtype::FP16, s[i]);
    float f;
    std::memcpy(&f, &b, 4);
    store_bits(K, d + i * kFormats[K].size, from_float(K, f));
  }
}

template <int K>
void cast_to_half(void* from, void* to, npy_intp n, void*, void*) {
  const auto* s = static_cast<const char*>(from);
  auto* d = static_cast<uint16_t*>(to);
  for (npy_intp i = 0; i < n; ++i) {
    const float f = to_float(K, load_bits(K, s + i * kFormats[K].size));
    uint32_t b;
    std::memcpy(&b, &f, 4);
    d[i] = static_cast<uint16_t>(narrow_from_fp32(Dtype::FP16, b));
  }
}

template <int K, int J>
void cast_between(void* from, void* to, npy_intp n, void*, void*) {
  const auto* s = static_cast<const char*>(from);
  auto* d = static_cast<char*>(to);
  for (npy_intp i = 0; i < n; ++i)
    store_bits(J, d + i * kFormats[J].size,
               from_float(J, to_float(K, load_bits(K, s + i * kFormats[K].size))));
}

template <int K, typename T>
bool register_cast_pair(int npy_type) {
  PyArray_Descr* other = PyArray_DescrFromType(npy_type);
  const bool ok = PyArray_RegisterCastFunc(other, type_nums[K], cast_from<K, T>) >= 0 &&
                  PyArray_RegisterCastFunc(&descrs[K], npy_type, cast_to<K, T>) >= 0;
  Py_DECREF(other);
  return ok;
}

template <int K>
bool register_casts() {
  bool ok =
      register_cast_pair<K, npy_bool>(NPY_BOOL) && register_cast_pair<K, npy_byte>(NPY_BYTE) &&
      register_cast_pair<K, npy_ubyte>(NPY_UBYTE) && register_cast_pair<K, npy_short>(NPY_SHORT) &&
      register_cast_pair<K, npy_ushort>(NPY_USHORT) && register_cast_pair<K, npy_int>(NPY_INT) &&
      register_cast_pair<K, npy_uint>(NPY_UINT) && register_cast_pair<K, npy_long>(NPY_LONG) &&
      register_cast_pair<K, npy_ulong>(NPY_ULONG) &&
      register_cast_pair<K, npy_longlong>(NPY_LONGLONG) &&
      register_cast_pair<K, npy_ulonglong>(NPY_ULONGLONG) &&
      register_cast_pair<K, npy_float>(NPY_FLOAT) &&
      register_cast_pair<K, npy_double>(NPY_DOUBLE) &&
      register_cast_pair<K, npy_longdouble>(NPY_LONGDOUBLE);
  if (!ok) return false;
  PyArray_Descr* half = PyArray_DescrFromType(NPY_HALF);
  ok = PyArray_RegisterCastFunc(half, type_nums[K], cast_from_half<K>) >= 0 &&
       PyArray_RegisterCastFunc(&descrs[K], NPY_HALF, cast_to_half<K>) >= 0;
  Py_DECREF(half);
  // Exact widenings: to float32 and float64 (and so NumPy's ufuncs take them).
  return ok && PyArray_RegisterCanCast(&descrs[K], NPY_FLOAT, NPY_NOSCALAR) >= 0 &&
         PyArray_RegisterCanCast(&descrs[K], NPY_DOUBLE, NPY_NOSCALAR) >= 0 &&
         PyArray_RegisterCanCast(&descrs[K], NPY_LONGDOUBLE, NPY_NOSCALAR) >= 0;
}

template <int K, int J>
bool register_between() {
  return PyArray_RegisterCastFunc(&descrs[K], type_nums[J], cast_between<K, J>) >= 0;
}

template <int K>
bool register_format(PyObject* module, PyObject* sctype_dict) {
  const Format& f = kFormats[K];
  // The CPython and NumPy structs, by designated initializers: every member not named is
  // null, as those C APIs expect (GCC 12 warns about the members left out nonetheless).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
  PyNumberMethods& nm = scalar_number[K];
  nm = PyNumberMethods{.nb_bool = scalar_bool<K>,
                       .nb_int = via_float<K, PyNumber_Long>,
                       .nb_float = scalar_float<K>};
  PyTypeObject& t = scalar_types[K];
  t = PyTypeObject{.ob_base = PyVarObject_HEAD_INIT(nullptr, 0).tp_name = f.qualname,
                   .tp_basicsize = sizeof(ScalarObject),
                   .tp_repr = via_float<K, PyObject_Repr>,
                   .tp_as_number = &nm,
                   .tp_hash = scalar_hash<K>,
                   .tp_str = via_float<K, PyObject_Repr>,
                   .tp_flags = Py_TPFLAGS_DEFAULT,
                   .tp_doc = "A number of gpsimd's format of this name (SPEC §5), as a NumPy "
                             "scalar.",
                   .tp_richcompare = scalar_richcompare<K>,
                   .tp_base = &PyGenericArrType_Type,
                   .tp_new = scalar_new<K>};
  if (PyType_Ready(&t) < 0) return false;

  // NumPy's PyArray_InitArrFuncs leaves every other member null, as this does.
  PyArray_ArrFuncs& fn = arr_funcs[K];
  fn = PyArray_ArrFuncs{.getitem = getitem<K>,
                        .setitem = setitem<K>,
                        .copyswapn = copyswapn<K>,
                        .copyswap = copyswap<K>,
                        .compare = compare<K>,
                        .argmax = arg_extreme<K, true>,
                        .dotfunc = dot<K>,
                        .nonzero = nonzero<K>,
                        .fill = fill<K>,
                        .argmin = arg_extreme<K, false>};

  PyArray_Descr& d = descrs[K];
  d = PyArray_Descr{.ob_base = PyObject_HEAD_INIT(&PyArrayDescr_Type).typeobj = &t,
                    .kind = 'V',
                    .type = f.type_char,
                    .byteorder = '=',
                    .flags = NPY_NEEDS_PYAPI | NPY_USE_GETITEM | NPY_USE_SETITEM,
                    .elsize = f.size,
                    .alignment = f.size,
                    .f = &fn,
                    .hash = -1};
#pragma GCC diagnostic pop
  type_nums[K] = PyArray_RegisterDataType(&d);
  if (type_nums[K] < 0) return false;
  Py_INCREF(&t);
  if (PyModule_AddObject(module, f.name, reinterpret_cast<PyObject*>(&t)) < 0) return false;
  // np.dtype("bfloat16") and x.astype("bfloat16"), as ml_dtypes does.
  return PyDict_SetItemString(sctype_dict, f.name, reinterpret_cast<PyObject*>(&t)) >= 0 &&
         register_casts<K>();
}

int import_numpy() {
  import_array1(-1);
  import_umath1(-1);
  return 0;
}

}  // namespace

void register_numpy_dtypes(py::module_& m) {
  if (import_numpy() < 0) throw py::error_already_set();
  py::object sctypes = py::module_::import("numpy").attr("sctypeDict");
  if (!register_format<0>(m.ptr(), sctypes.ptr()) || !register_format<1>(m.ptr(), sctypes.ptr()) ||
      !register_format<2>(m.ptr(), sctypes.ptr()) || !register_between<0, 1>() ||
      !register_between<0, 2>() || !register_between<1, 0>() || !register_between<1, 2>() ||
      !register_between<2, 0>() || !register_between<2, 1>())
    throw py::error_already_set();
}

}  // namespace gpsimd::python
