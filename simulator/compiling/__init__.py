"""Compiling the engines: numba's cache, the first compile and its progress, a compile in a
background process while the first games play interpreted."""
