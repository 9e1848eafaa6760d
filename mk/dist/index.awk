# octave/Contents.m -> the INDEX file of the Octave package: the first line
# gives the package's name and title, "% Heading" lines the categories and
# "%   name  - text" lines the functions.
NR == 1 { sub(/^% */, ""); split($0, a, ": "); print "kdagdn >> " a[2]; next }
/^% [A-Z]/ { sub(/^% /, ""); print; next }
/^%   [a-z_0-9]+ +- / { print " " $2 }
