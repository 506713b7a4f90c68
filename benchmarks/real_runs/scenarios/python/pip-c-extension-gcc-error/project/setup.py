from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("fastsum._speedups", ["src/fastsum/_speedups.c"], extra_compile_args=["-O2"]),
    ]
)
