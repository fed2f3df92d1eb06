function raw() return data[0xFF0020] * 256 + data[0xFF0021] end
