"""What is written on disk: a run's folder (manifest, parts, the writer lock) and the folders the
studies write, read back."""
