"""Checks of integration data (stable-retro's ``retro.testing``): see :mod:`retrogym.testing.tools`."""
