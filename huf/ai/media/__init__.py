"""Media: pictures, sound and files that go in and out of runs.

Files a person attaches to a message (``attachments``), files a tool makes (``files``), the models
and settings for speech and images (``models``, ``speech_settings``), speech to text
(``speech_to_text``) and the built-in media tools (``sdk_tools``: image, audio and OCR; its
``huf.ai.sdk_tools.*`` paths are the reference's names and stay through ``huf/ai/moved.py``).

May import: the engine, the site's foundations and ``huf.ai.tools``.
"""
