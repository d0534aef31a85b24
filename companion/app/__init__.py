"""The composition root: the only package that knows every part (vision, hardware, web and
the core) and wires them into a table: the config, the assembly of a table, the camera's
loop, the server, the demo and the ``companion`` command."""
