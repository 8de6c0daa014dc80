"""Real games the demo plays (README.md says where each comes from); read as package data."""
