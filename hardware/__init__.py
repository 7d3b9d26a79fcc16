"""The Pi's own I/O: buttons (gpiozero) and the OLED (luma.oled), on real pins or the libraries' mocks."""
