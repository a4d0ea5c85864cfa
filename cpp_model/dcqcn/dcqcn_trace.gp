# Plot the rate trajectory written by dcqcn_trace: per QP, Rc solid and Rt dashed (steps).
#   dcqcn_trace cnps.txt > rates.csv
#   gnuplot -e "csv='rates.csv'; out='rates.png'; qps=2" cpp_model/dcqcn/dcqcn_trace.gp
if (!exists("csv")) csv = 'rates.csv'
if (!exists("out")) out = 'rates.png'
if (!exists("qps")) qps = 1
set terminal pngcairo size 1000,600
set output out
set datafile separator ','
set key bottom right
set xlabel 'time (us)'
set ylabel 'rate (Gb/s)'
set grid
sel(q) = sprintf("< awk -F, 'NR > 1 && $2 == %d' %s", q, csv)
cnp(q) = sprintf("< awk -F, 'NR > 1 && $2 == %d && $6 == \"cnp\"' %s", q, csv)
plot for [q=0:qps-1] sel(q) using 1:3 with steps lw 2 title sprintf('Rc qp %d', q), \
     for [q=0:qps-1] sel(q) using 1:4 with steps dt 2 title sprintf('Rt qp %d', q), \
     for [q=0:qps-1] cnp(q) using 1:3 with points pt 7 ps 0.8 title sprintf('CNP qp %d', q)
