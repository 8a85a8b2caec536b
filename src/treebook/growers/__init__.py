"""growers"""
