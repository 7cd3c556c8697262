"""The weighted-centering lesson: subtracting a weighted mean is a slanted projection along 𝟏."""
