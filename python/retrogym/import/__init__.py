"""``python -m retrogym.import PATH...``: imports ROMs into the data root (see retrogym.data.import_roms)."""
