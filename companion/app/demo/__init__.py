"""The demo: a simulated table played through the real referee, vision and pads."""
