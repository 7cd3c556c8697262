"""Tests of the class poll: its two stores and its room service."""
