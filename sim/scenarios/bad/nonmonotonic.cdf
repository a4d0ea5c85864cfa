# sizes go down on line 3
0 0
1000 0.5
500 0.8
2000 1
