"""The Integration UI (docs/ui.md): ``retrogym ui [GAME|ROM|MOVIE]`` or ``python -m retrogym.ui``. A local web server
(aiohttp, the ``ui`` extra) and a page shipped in the package: play the game, save states, look at memory, make
variables and write the scenario of an integration."""
