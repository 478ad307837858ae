"""Playing a run: the request, every check before anything is written, the chunks on one machine or
a cluster, Ctrl-C, verify and replay, policy files."""
