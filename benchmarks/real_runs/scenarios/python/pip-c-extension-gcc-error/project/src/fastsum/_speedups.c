#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Compensated (Kahan) summation of a sequence of floats. */
static PyObject *
kahan_sum(PyObject *self, PyObject *args)
{
    PyObject *seq;
    if (!PyArg_ParseTuple(args, "O", &seq))
        return NULL;
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (fast == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    double sum = 0.0, comp = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (x == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        double y = x - comp;
        double t = sum + y;
        comp = (t - sum) - y;
        sum = t;
    }
    Py_DECREF(fast);
    return PyFloat_FromDouble(total);
}

static PyMethodDef methods[] = {
    {"kahan_sum", kahan_sum, METH_VARARGS, "Compensated sum of floats."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
