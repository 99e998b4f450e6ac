"""The camera pipeline: frame sources, throw watcher, dice location, face reading, confidence."""

import os

# OpenCV reads this once, when it is first imported: it then refuses to decode an image of more pixels
# than vision.imagefile.MAX_PIXELS, a second guard behind the header check there.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "40000000")
