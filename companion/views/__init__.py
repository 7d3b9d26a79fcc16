"""Views: pure functions of state to pictures (OLED image, projector surface)."""
