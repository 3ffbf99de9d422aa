public import TetherHTTP
