/*
 * What the C search engines (games/<game>/_search.c) share of their CPython glue: reading a
 * Python sequence of ints into a C array, and the module's init.
 *
 * Beside rng.h and, like it, built into each engine (setup.py's include_dirs): every function
 * is static inline, so each extension compiles its own copy and exports nothing from here.
 * Include it after <Python.h>.
 */
#ifndef MEADHALL_SEARCH_EXT_H
#define MEADHALL_SEARCH_EXT_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* seq as a fast sequence of at most max items, or NULL with an exception set. */
static inline PyObject *fast_sequence(PyObject *seq, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast && PySequence_Fast_GET_SIZE(fast) > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many values", what);
        return NULL;
    }
    return fast;
}

/* Reads a sequence of ints into out (at most max); returns the count, or -1 with an exception set. */
static inline int read_ints(PyObject *seq, long *out, int max, const char *what) {
    PyObject *fast = fast_sequence(seq, max, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return (int)n;
}

/* Reads a sequence of ints from 0 to 255 into out (at most max); returns the count, or -1 with an exception set. */
static inline int read_bytes(PyObject *seq, uint8_t *out, int max, const char *what) {
    PyObject *fast = fast_sequence(seq, max, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((v == -1 && PyErr_Occurred()) || v < 0 || v > 255) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: value out of range", what);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/*
 * A search state as bytes (pickling, copy): a 12-byte header (the engine's 4-letter tag, its
 * layout version and the size of its core, both uint32 little or big as built) and then the
 * core itself, byte for byte: exactly what clone() copies, so a state read back is the same
 * state, its generator included. A build with another layout refuses the bytes (ValueError)
 * instead of reading them wrongly; the bytes are for this build, as a pickle of one run is.
 */
#define CORE_HEADER 12

static inline PyObject *core_to_bytes(const char *tag, uint32_t version, const void *core, size_t size) {
    PyObject *data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(CORE_HEADER + size));
    if (!data) return NULL;
    char *out = PyBytes_AS_STRING(data);
    uint32_t length = (uint32_t)size;
    memcpy(out, tag, 4);
    memcpy(out + 4, &version, 4);
    memcpy(out + 8, &length, 4);
    memcpy(out + CORE_HEADER, core, size);
    return data;
}

/* Copies the core of data (as core_to_bytes wrote it) into core; 0, or -1 with ValueError set. */
static inline int core_from_bytes(PyObject *data, const char *tag, uint32_t version, void *core, size_t size) {
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "a search state's bytes (from to_bytes())");
        return -1;
    }
    const char *in = PyBytes_AS_STRING(data);
    uint32_t found_version, found_size;
    if ((size_t)PyBytes_GET_SIZE(data) != CORE_HEADER + size || memcmp(in, tag, 4) != 0) {
        PyErr_Format(PyExc_ValueError, "not the bytes of a %.4s search state of this build", tag);
        return -1;
    }
    memcpy(&found_version, in + 4, 4);
    memcpy(&found_size, in + 8, 4);
    if (found_version != version || found_size != (uint32_t)size) {
        PyErr_Format(PyExc_ValueError, "search state bytes of layout %u (%u bytes); this build reads layout %u (%u bytes)",
                     found_version, found_size, version, (unsigned)size);
        return -1;
    }
    memcpy(core, in + CORE_HEADER, size);
    return 0;
}

/*
 * The body of an engine's PyInit__search: the module of def, with its SearchState type and
 * the tables add_tables puts in (the engine's constants, checked against Python at import).
 */
static inline PyObject *search_module(PyModuleDef *def, PyTypeObject *state_type, int (*add_tables)(PyObject *)) {
    if (PyType_Ready(state_type) < 0) return NULL;
    PyObject *m = PyModule_Create(def);
    if (!m) return NULL;
    Py_INCREF(state_type);
    if (PyModule_AddObject(m, "SearchState", (PyObject *)state_type) < 0) {
        Py_DECREF(state_type);
        Py_DECREF(m);
        return NULL;
    }
    if (add_tables(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/*
 * The floor(uniform * count)-th index of row (size bytes) whose byte is set, count being the set bytes: the pick of
 * VectorBackend.random_actions over a dense mask row; -1 for a row with none. Eight bytes at a time, as most of a
 * mask is zeros.
 */
static inline Py_ssize_t kth_set_byte(const uint8_t *row, Py_ssize_t size, double uniform) {
    Py_ssize_t count = 0, j = 0;
    for (; j + 8 <= size; j += 8) {
        uint64_t word;
        memcpy(&word, row + j, 8);
        if (word)
            for (int b = 0; b < 8; b++) count += row[j + b] != 0;
    }
    for (; j < size; j++) count += row[j] != 0;
    if (!count) return -1;
    Py_ssize_t k = (Py_ssize_t)(uniform * (double)count);
    if (k >= count) k = count - 1;
    for (j = 0; j < size; j++) {
        if ((j & 7) == 0 && j + 8 <= size) {
            uint64_t word;
            memcpy(&word, row + j, 8);
            if (!word) {
                j += 7;
                continue;
            }
        }
        if (row[j] && k-- == 0) return j;
    }
    return -1;
}

/*
 * vector_pick(masks, uniforms, out) for an engine's vector backend: for each row i of masks (uint8, n rows of equal
 * length), out[i] (int64) = the k-th index whose byte is set, k = floor(uniforms[i] (float64) * the row's count);
 * -1 for a row with none. meadhall.rl.VectorEnv.random_actions, the same pick as its numpy version.
 */
static inline PyObject *vector_pick(PyObject *module, PyObject *args) {
    PyObject *masks, *uniforms, *out;
    if (!PyArg_ParseTuple(args, "OOO", &masks, &uniforms, &out)) return NULL;
    Py_buffer m, u, o;
    if (PyObject_GetBuffer(masks, &m, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(uniforms, &u, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&m);
        return NULL;
    }
    if (PyObject_GetBuffer(out, &o, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&m);
        PyBuffer_Release(&u);
        return NULL;
    }
    Py_ssize_t n = o.len / 8, size = n > 0 ? m.len / n : 0;
    PyObject *result = NULL;
    if (u.len != n * 8 || o.len != n * 8 || m.len != n * size) {
        PyErr_SetString(PyExc_ValueError, "vector_pick: n rows of masks, n float64 uniforms, n int64 out");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        ((int64_t *)o.buf)[i] = kth_set_byte((const uint8_t *)m.buf + i * size, size, ((const double *)u.buf)[i]);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&m);
    PyBuffer_Release(&u);
    PyBuffer_Release(&o);
    return result;
}

#endif
