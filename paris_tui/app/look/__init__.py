"""How things are drawn and said.

Words for what the core reports, glyphs, colours, tour frames, the hint's and the rating's words.
"""
