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

#endif
