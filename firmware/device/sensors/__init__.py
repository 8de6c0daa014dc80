"""Reed-switch sensor backends: a direct matrix, a 74HC165 chain, MCP23017 expanders.

Each backend is Class(hal, cfg) with `n` (sensors it can read) and
read_into(buf): buf[k] = 1 when a magnet is over sensor k, for k below
min(n, len(buf)). read_into allocates nothing, so the scan loop stays
allocation-free. build(hal, cfg) picks the class from cfg["type"].
"""


def build(hal, cfg):
    """The sensor backend for a profile's "sensors" section."""
    t = cfg["type"]
    if t == "matrix":
        from device.sensors.matrix import Matrix
        return Matrix(hal, cfg)
    if t == "hc165":
        from device.sensors.hc165 import HC165
        return HC165(hal, cfg)
    if t == "mcp23017":
        from device.sensors.mcp23017 import MCP23017
        return MCP23017(hal, cfg)
    raise ValueError("unknown sensor type %r (matrix, hc165, mcp23017)" % t)
