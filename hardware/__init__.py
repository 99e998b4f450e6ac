"""Buttons, LEDs, buzzer and camera hardware behind small interfaces (gpiozero, picamera2)."""
